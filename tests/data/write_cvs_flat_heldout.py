"""Writes cvs_flat_heldout.jsonl: 10 flat IT CVs we wrote by hand after the flat-text
rules (synth/kinds/cvs/extract/flat.py) were frozen, never used to change them.

Same style and labelling rules as write_cvs_flat.py, with what that set did not have:
jobs without a place, abbreviated and numeric months, legal forms (Inc., LLC), a
degree with a single year, a high-school line, contract jobs, a job line that runs on
from the summary, and a stated total that is not in the summary.
Run: python -m tests.data.write_cvs_flat_heldout
"""

from tests.data.write_cvs_layouts import span
from tests.data.write_cvs_small import write

CVS = [
    (
        "Java Developer",
        (
            "Java Developer Java Developer - Bridgeway Systems Inc. Nashville, TN Seeking a "
            "backend role where I can keep building payment systems. Work Experience Java "
            "Developer Bridgeway Systems Inc. - Nashville, TN Aug 2018 to Present * Maintain the "
            "claims engine in Java 11 and Spring * Moved builds from Ant to Gradle Java Developer "
            "(Contract) Volunteer State Bank Mar 2016 to Jul 2018 * Built account statement "
            "services Education Bachelor of Science in Computer Science Middle Tennessee State "
            "University - Murfreesboro, TN May 2015 Skills Java (8 years), Spring (6 years), Gradle "
            "(3 years)"
        ),
        [("Middle Tennessee State University", "Bachelor's")],
        [("Bridgeway Systems", span(8, 2018)), ("Volunteer State Bank", span(3, 2016, 7, 2018))],
        span(8, 2018) + span(3, 2016, 7, 2018),
    ),
    (
        "Systems Administrator",
        (
            "Systems Administrator Systems Administrator - Hillcrest Clinic Omaha, NE Work "
            "Experience Systems Administrator Hillcrest Clinic - Omaha, NE 06/2019 to Present • "
            "Administer 60 Windows servers and the clinic's Citrix farm • Wrote PowerShell "
            "scripts for account cleanup Network Support Technician Union Pacific - Omaha, NE "
            "01/2016 to 05/2019 • Replaced switches in 12 rail yards Education High school or "
            "equivalent Central High School - Omaha, NE 2011 Associate of Science in Information "
            "Technology Metropolitan Community College - Omaha, NE 2013 to 2015 Skills Windows "
            "Server (8 years), Citrix (5 years), PowerShell (6 years)"
        ),
        [("Metropolitan Community College", "Bachelor's")],
        [("Hillcrest Clinic", span(6, 2019)), ("Union Pacific", span(1, 2016, 5, 2019))],
        span(6, 2019) + span(1, 2016, 5, 2019),
    ),
    (
        "Python Developer",
        (
            "Python Developer Python Developer - Copperline Data LLC Salt Lake City, UT Python "
            "developer with 6 years of experience in data pipelines and APIs. Work Experience "
            "Python Developer Copperline Data LLC - Salt Lake City, UT January 2020 to Present ? "
            "Wrote FastAPI services for map tiles ? Ran Spark jobs on EMR Software Engineer Overstock "
            "- Midvale, UT June 2018 to December 2019 ? Built a pricing service in Python "
            "Education Master of Science in Computer Science University of Utah - Salt Lake City, "
            "UT 2016 to 2018 Bachelor of Science in Mathematics Brigham Young University - Provo, "
            "UT 2012 to 2016 Skills Python (6 years), Spark (4 years), FastAPI (3 years)"
        ),
        [("Brigham Young University", "Bachelor's"), ("University of Utah", "Master's")],
        [("Copperline Data", span(1, 2020)), ("Overstock", span(6, 2018, 12, 2019))],
        6,
    ),
    (
        "Security Analyst",
        (
            "Security Analyst Security Analyst - Statewide Insurance Group Des Moines, IA Work "
            "Experience Security Analyst Statewide Insurance Group - Des Moines, IA September "
            "2017 to Present Responsibilities: • Investigate phishing reports and malware alerts • "
            "Maintain the DLP policies in Symantec Environment: Splunk, Symantec DLP, QRadar IT "
            "Auditor Principal Financial Group - Des Moines, IA July 2014 to August 2017 • Tested "
            "access controls for SOX Education Bachelor of Business Administration in Management "
            "Information Systems Iowa State University - Ames, IA 2010 to 2014 Additional "
            "Information Ten years of experience in IT security and audit. CISA, CISSP."
        ),
        [("Iowa State University", "Bachelor's")],
        [
            ("Statewide Insurance Group", span(9, 2017)),
            ("Principal Financial Group", span(7, 2014, 8, 2017)),
        ],
        10,
    ),
    (
        "Front End Developer",
        (
            "Front End Developer Front End Developer - Mosaic Health Apps Raleigh, NC Front end "
            "developer who enjoys accessible, fast interfaces. Work Experience Front End Developer "
            "Mosaic Health Apps - Raleigh, NC Feb 2021 to Present Rebuilt the patient portal in "
            "React with TypeScript; raised accessibility scores to WCAG AA. Junior Front End "
            "Developer Triangle Web Works - Durham, NC Jun 2019 to Jan 2021 Built Angular "
            "dashboards. Education Bachelor of Science in Computer Science University of North "
            "Carolina at Chapel Hill - Chapel Hill, NC 2015 to 2019 Skills React (4 years), "
            "TypeScript (3 years), Angular (2 years)"
        ),
        [("University of North Carolina at Chapel Hill", "Bachelor's")],
        [
            ("Mosaic Health Apps", span(2, 2021)),
            ("Triangle Web Works", span(6, 2019, 1, 2021)),
        ],
        span(2, 2021) + span(6, 2019, 1, 2021),
    ),
    (
        "Network Administrator",
        (
            "Network Administrator Network Administrator - Gulf Coast Shipping Mobile, AL • CCNP "
            "certified network administrator • Experienced with Cisco, Juniper and Palo Alto Work "
            "Experience Network Administrator Gulf Coast Shipping - Mobile, AL April 2016 to "
            "Present • Manage the WAN for 7 ports • Migrated the core to Juniper EX switches "
            "Network Technician AT&T - Mobile, AL May 2012 to March 2016 • Turned up T1 and MPLS "
            "circuits Education Bachelor of Science in Information Technology University of "
            "South Alabama - Mobile, AL 2008 to 2012 Certifications/Licenses CCNP Routing and "
            "Switching Skills Cisco (12 years), Juniper (8 years), Palo Alto (5 years)"
        ),
        [("University of South Alabama", "Bachelor's")],
        [("Gulf Coast Shipping", span(4, 2016)), ("AT&T", span(5, 2012, 3, 2016))],
        span(4, 2016) + span(5, 2012, 3, 2016),
    ),
    (
        "Project Manager",
        (
            "Senior Project Manager Senior Project Manager - Lakeside Construction Software "
            "Minneapolis, MN Work Experience Senior Project Manager Lakeside Construction Software "
            "- Minneapolis, MN October 2018 to Present * Lead delivery of the estimating product, "
            "3 teams, 25 people * Introduced quarterly planning Project Manager Target - "
            "Minneapolis, MN March 2013 to September 2018 * Ran store systems rollouts to 300 "
            "stores Education MBA University of Minnesota - Minneapolis, MN 2016 to 2018 Bachelor "
            "of Arts in Economics St. Olaf College - Northfield, MN 2008 to 2012 Skills Agile (8 "
            "years), Budgeting (10 years), Jira (8 years)"
        ),
        [("St. Olaf College", "Bachelor's"), ("University of Minnesota", "Master's")],
        [
            ("Lakeside Construction Software", span(10, 2018)),
            ("Target", span(3, 2013, 9, 2018)),
        ],
        span(10, 2018) + span(3, 2013, 9, 2018),
    ),
    (
        "Database Administrator",
        (
            "MySQL DBA MySQL DBA - Evergreen Learning Olympia, WA Over 8 years of experience with "
            "MySQL, MariaDB and PostgreSQL in production Work Experience MySQL DBA Evergreen "
            "Learning - Olympia, WA 2019 to Present • Run Galera clusters for the course "
            "platform • Cut backup time from 6 hours to 40 minutes Database Analyst Washington "
            "State Department of Revenue - Olympia, WA 2016 to 2019 • Wrote reports in SQL and "
            "Crystal Reports Education Bachelor of Science in Computer Science The Evergreen State "
            "College - Olympia, WA 2012 to 2016 Skills MySQL (8 years), PostgreSQL (4 years)"
        ),
        [("The Evergreen State College", "Bachelor's")],
        [
            ("Evergreen Learning", 2024 - 2019),
            ("Washington State Department of Revenue", 2019 - 2016),
        ],
        8,
    ),
    (
        "Web Developer",
        (
            "Web Developer Web Developer - Redline Marketing Agency Kansas City, MO Work "
            "Experience Web Developer Redline Marketing Agency - Kansas City, MO November 2019 to "
            "Present ➢ Build client sites in Next.js and Contentful ➢ Set up CI with GitHub "
            "Actions Web Developer Intern Hallmark Cards - Kansas City, MO June 2019 to August "
            "2019 ➢ Fixed CSS bugs on the e-card pages Education Bachelor of Science in Computer "
            "Science University of Missouri-Kansas City - Kansas City, MO 2015 to 2019 Skills "
            "Next.js (4 years), JavaScript (6 years), CSS (6 years)"
        ),
        [("University of Missouri-Kansas City", "Bachelor's")],
        [
            ("Redline Marketing Agency", span(11, 2019)),
            ("Hallmark Cards", span(6, 2019, 8, 2019)),
        ],
        span(11, 2019) + span(6, 2019, 8, 2019),
    ),
    (
        "Software Developer",
        (
            "Software Developer Software Developer - Northstar Avionics Cedar Rapids, IA Work "
            "Experience Software Developer Northstar Avionics - Cedar Rapids, IA July 2017 to "
            "Present Write embedded C for cockpit displays under DO-178C. Software Engineer "
            "Rockwell Collins - Cedar Rapids, IA June 2012 to June 2017 Tested radio firmware. "
            "Education Master of Science in Electrical and Computer Engineering University of "
            "Iowa - Iowa City, IA 2010 to 2012 Bachelor of Science in Computer Engineering Iowa "
            "State University - Ames, IA 2006 to 2010 Skills C (12 years), DO-178C (7 years)"
        ),
        [("Iowa State University", "Bachelor's"), ("University of Iowa", "Master's")],
        [("Northstar Avionics", span(7, 2017)), ("Rockwell Collins", span(6, 2012, 6, 2017))],
        span(7, 2017) + span(6, 2012, 6, 2017),
    ),
]


if __name__ == "__main__":
    write(CVS, "cvs_flat_heldout.jsonl")
