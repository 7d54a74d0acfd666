"""Writes cvs_flat.jsonl: 30 IT CVs we wrote by hand as one flat block of text, with
hand labels.

The style is that of CVs scraped from a job board and stored without line breaks:
the headline repeats the current title ("Java Developer Java Developer - Acme Corp
Dallas, TX"), section headings run on inline ("... Work Experience Java Developer Acme
Corp - Dallas, TX June 2017 to Present ..."), bullets are '•', '*', '?' or '➢', and
the skills section gives years per skill ("Java (6 years)"), which are not jobs. Written
before the extraction rules for flat text, which were then developed on these CVs: a
development set (cvs_flat_heldout.jsonl was written after the rules were frozen).

Labelling rules, as write_cvs_layouts.py's plus: an employer is named without its place
("Acme Corp - Dallas, TX" is "Acme Corp"); a university likewise; years per employer
follow `span` (an open end is 2024); only a job in the work history counts, not the
current employer repeated in the headline (it is the same employer, counted once); a
university where the person worked, not studied, is an employer; the skills section's
years are not employment; total years as stated in digits or words ("Six plus years of
experience" is 6), else the sum over employers. Run: python -m tests.data.write_cvs_flat
"""

from tests.data.write_cvs_layouts import span
from tests.data.write_cvs_small import write

CVS = [
    (
        "Database Administrator",
        (
            "Database Administrator Database Administrator Database Administrator - Northwind "
            "Health Systems Tulsa, OK * Seven years of experience administering SQL Server "
            "2012-2019 in production. * Built log shipping and AlwaysOn availability groups. * "
            "Tuned slow queries with execution plans and index rebuilds. Work Experience Database "
            "Administrator Northwind Health Systems - Tulsa, OK March 2019 to Present * Support 140 "
            "SQL Server instances across two data centers. * Automated backups with PowerShell. "
            "Junior SQL DBA Cobalt Lending Group - Oklahoma City, OK June 2017 to February 2019 * "
            "Monitored jobs and restored test databases weekly. Education Bachelor of Science in "
            "Information Systems University of Oklahoma - Norman, OK 2013 to 2017 Skills SQL Server "
            "(7 years), T-SQL (7 years), PowerShell (4 years), SSIS (3 years)"
        ),
        [("University of Oklahoma", "Bachelor's")],
        [
            ("Northwind Health Systems", span(3, 2019)),
            ("Cobalt Lending Group", span(6, 2017, 2, 2019)),
        ],
        7,
    ),
    (
        "Java Developer",
        (
            "Sr. Java Developer Sr. Java Developer Sr. Java Developer - Keystone Payments "
            "Pittsburgh, PA • 9+ years of experience in design and development of Java "
            "applications • Strong in Spring Boot, Hibernate, Kafka and REST services Work "
            "Experience Sr. Java Developer Keystone Payments - Pittsburgh, PA January 2020 to "
            "Present Responsibilities: • Designed microservices for card settlement • Migrated "
            "batch jobs to Spring Batch Environment: Java 11, Spring Boot, Kafka, Oracle Java "
            "Developer Allegheny Mutual Insurance - Pittsburgh, PA August 2016 to December 2019 • "
            "Built policy rating services in Java 8 Java Developer Infosys - Hyderabad, Telangana "
            "July 2014 to July 2016 • Wrote JUnit tests for a banking portal Education Bachelor's "
            "in Computer Science Osmania University 2010 to 2014 Skills Java (9 years), Spring (7 "
            "years), Hibernate (6 years), Oracle (5 years)"
        ),
        [("Osmania University", "Bachelor's")],
        [
            ("Keystone Payments", span(1, 2020)),
            ("Allegheny Mutual Insurance", span(8, 2016, 12, 2019)),
            ("Infosys", span(7, 2014, 7, 2016)),
        ],
        9,
    ),
    (
        "Front End Developer",
        (
            "Front End Developer Front End Developer - Brightleaf Studio Austin, TX Work "
            "Experience Front End Developer Brightleaf Studio - Austin, TX May 2021 to Present ? "
            "Build React and TypeScript interfaces for retail clients. ? Cut bundle size by 35% "
            "with code splitting. Web Designer Pixel Harbor - Round Rock, TX June 2019 to April 2021 "
            "? Designed landing pages in HTML5, CSS3 and jQuery. Education Bachelor of Fine Arts in "
            "Graphic Design Texas State University - San Marcos, TX 2015 to 2019 Skills React (3 "
            "years), JavaScript (5 years), CSS (5 years), Figma (2 years) Links "
            "https://github.com/example"
        ),
        [("Texas State University", "Bachelor's")],
        [("Brightleaf Studio", span(5, 2021)), ("Pixel Harbor", span(6, 2019, 4, 2021))],
        span(5, 2021) + span(6, 2019, 4, 2021),
    ),
    (
        "Network Administrator",
        (
            "Network Administrator Network Administrator - Lakeshore School District Gary, IN "
            "Authorized to work in the US for any employer Work Experience Network Administrator "
            "Lakeshore School District - Gary, IN September 2018 to Present • Manage Cisco "
            "switches and Meraki access points across 14 schools • Configure VLANs, OSPF and "
            "site-to-site VPNs Network Technician Calumet Cable Services - Hammond, IN April 2015 to "
            "August 2018 • Installed and tested fiber and copper runs Education Associate of "
            "Applied Science in Network Engineering Ivy Tech Community College - Gary, IN 2013 to "
            "2015 Certifications/Licenses CCNA Present Skills Cisco (6 years), VPN (5 years)"
        ),
        [("Ivy Tech Community College", "Bachelor's")],
        [
            ("Lakeshore School District", span(9, 2018)),
            ("Calumet Cable Services", span(4, 2015, 8, 2018)),
        ],
        span(9, 2018) + span(4, 2015, 8, 2018),
    ),
    (
        "Project Manager",
        (
            "IT Project Manager IT Project Manager - Meridian Logistics Memphis, TN Certified PMP "
            "with 12 years of experience leading software and infrastructure projects Work "
            "Experience IT Project Manager Meridian Logistics - Memphis, TN February 2017 to Present "
            "* Ran a $4M warehouse management rollout across 9 sites * Managed a team of 18 "
            "engineers using Scrum Project Coordinator FedEx - Memphis, TN March 2012 to January "
            "2017 * Tracked budgets and schedules for network upgrades Education Master of Business "
            "Administration University of Memphis - Memphis, TN 2010 to 2012 Bachelor of Science in "
            "Business Administration University of Mississippi - Oxford, MS 2006 to 2010 Skills MS "
            "Project (10 years), Jira (6 years), Agile (8 years)"
        ),
        [("University of Mississippi", "Bachelor's"), ("University of Memphis", "Master's")],
        [("Meridian Logistics", span(2, 2017)), ("FedEx", span(3, 2012, 1, 2017))],
        12,
    ),
    (
        "Python Developer",
        (
            "Python Developer Python Developer Python Developer - Quantrail Analytics Boston, MA ➢ "
            "Five years of experience in Python, Django and Flask ➢ Built ETL pipelines with pandas "
            "and Airflow Work Experience Python Developer Quantrail Analytics - Boston, MA October "
            "2020 to Present ➢ Developed Django REST APIs for risk dashboards ➢ Wrote Airflow DAGs "
            "for nightly loads Data Engineer Intern Harborview Bank - Boston, MA June 2019 to August "
            "2019 ➢ Cleaned transaction data with pandas Education Master of Science in Computer "
            "Science Northeastern University - Boston, MA 2018 to 2020 Bachelor of Technology in "
            "Electronics Jawaharlal Nehru Technological University 2013 to 2017 Skills Python (5 "
            "years), Django (4 years), SQL (5 years)"
        ),
        [
            ("Jawaharlal Nehru Technological University", "Bachelor's"),
            ("Northeastern University", "Master's"),
        ],
        [("Quantrail Analytics", span(10, 2020)), ("Harborview Bank", span(6, 2019, 8, 2019))],
        5,
    ),
    (
        "Security Analyst",
        (
            "Information Security Analyst Information Security Analyst - Redwood Federal Credit "
            "Union Sacramento, CA Work Experience Information Security Analyst Redwood Federal "
            "Credit Union - Sacramento, CA November 2019 to Present • Triage SIEM alerts in Splunk "
            "and lead incident response • Run quarterly vulnerability scans with Nessus SOC Analyst "
            "Accenture - Sacramento, CA January 2017 to October 2019 • Monitored IDS events for 30 "
            "clients Help Desk Technician California State University, Sacramento - Sacramento, CA "
            "May 2015 to December 2016 • Reset accounts and imaged laptops Education Bachelor of "
            "Science in Computer Science California State University, Sacramento - Sacramento, CA "
            "2012 to 2016 Certifications/Licenses CompTIA Security+ CISSP Skills Splunk (5 years), "
            "Nessus (5 years), Wireshark (4 years)"
        ),
        [("California State University, Sacramento", "Bachelor's")],
        [
            ("Redwood Federal Credit Union", span(11, 2019)),
            ("Accenture", span(1, 2017, 10, 2019)),
            ("California State University, Sacramento", span(5, 2015, 12, 2016)),
        ],
        span(11, 2019) + span(1, 2017, 10, 2019) + span(5, 2015, 12, 2016),
    ),
    (
        "Software Developer",
        (
            "Software Developer Software Developer - Tidewater Robotics Norfolk, VA Willing to "
            "relocate: Anywhere Work Experience Software Developer Tidewater Robotics - Norfolk, VA "
            "March 2018 to Present Wrote C++ firmware for warehouse robots. Added ROS drivers for "
            "lidar sensors. Software Engineer Intern Newport Shipbuilding Systems - Newport News, VA "
            "May 2017 to August 2017 Built a Qt tool for weld inspection reports. Education "
            "Bachelor of Science in Computer Engineering Old Dominion University - Norfolk, VA 2014 "
            "to 2018 Skills C++ (6 years), ROS (4 years), Python (5 years), Qt (1 year)"
        ),
        [("Old Dominion University", "Bachelor's")],
        [
            ("Tidewater Robotics", span(3, 2018)),
            ("Newport Shipbuilding Systems", span(5, 2017, 8, 2017)),
        ],
        span(3, 2018) + span(5, 2017, 8, 2017),
    ),
    (
        "Systems Administrator",
        (
            "Systems Administrator Systems Administrator - Pinecrest Medical Group Spokane, WA * 8 "
            "years of experience administering Windows and Linux servers * VMware vSphere, Active "
            "Directory, Group Policy, Exchange Work Experience Systems Administrator Pinecrest "
            "Medical Group - Spokane, WA July 2018 to Present * Maintain 220 virtual servers on "
            "vSphere 6.7 * Patch servers monthly with WSUS and Ansible IT Support Specialist "
            "Columbia Basin Foods - Moses Lake, WA May 2016 to June 2018 * Supported 300 users on "
            "Windows 10 and Office 365 Education Associate in Computer Information Systems Spokane "
            "Community College - Spokane, WA 2014 to 2016 Skills Active Directory (8 years), "
            "VMware (6 years), Linux (5 years)"
        ),
        [("Spokane Community College", "Bachelor's")],
        [
            ("Pinecrest Medical Group", span(7, 2018)),
            ("Columbia Basin Foods", span(5, 2016, 6, 2018)),
        ],
        8,
    ),
    (
        "Web Developer",
        (
            "Web Developer Web Developer - Freelance Portland, OR Work Experience Web Developer "
            "Freelance - Portland, OR January 2021 to Present • Build WordPress and Shopify sites "
            "for small businesses • Wrote custom PHP plugins for bookings Web Developer Cascade "
            "Outdoor Gear - Portland, OR June 2017 to December 2020 • Maintained the online store "
            "in Magento • Integrated the payment gateway Education Bachelor of Arts in Digital Media "
            "Portland State University - Portland, OR 2013 to 2017 Skills PHP (7 years), "
            "WordPress (7 years), MySQL (6 years), JavaScript (6 years)"
        ),
        [("Portland State University", "Bachelor's")],
        [
            ("Freelance", span(1, 2021)),
            ("Cascade Outdoor Gear", span(6, 2017, 12, 2020)),
        ],
        span(1, 2021) + span(6, 2017, 12, 2020),
    ),
    (
        "Database Administrator",
        (
            "Oracle DBA Oracle DBA Oracle DBA - Sunbelt Energy Houston, TX ➢ Over 10 years of "
            "experience as an Oracle Database Administrator on RAC, ASM and Data Guard Work "
            "Experience Oracle DBA Sunbelt Energy - Houston, TX April 2018 to Present ➢ Upgraded 40 "
            "databases from 11g to 19c ➢ Built Data Guard standbys for disaster recovery Oracle "
            "DBA Tata Consultancy Services - Chennai, Tamil Nadu June 2013 to March 2018 ➢ "
            "Supported Exadata for a US retail client Education Master of Computer Applications "
            "Anna University 2010 to 2013 Bachelor of Science in Mathematics University of Madras "
            "2007 to 2010 Skills Oracle (10 years), RMAN (9 years), Unix (10 years)"
        ),
        [("University of Madras", "Bachelor's"), ("Anna University", "Master's")],
        [
            ("Sunbelt Energy", span(4, 2018)),
            ("Tata Consultancy Services", span(6, 2013, 3, 2018)),
        ],
        10,
    ),
    (
        "Java Developer",
        (
            "Java Developer Java Developer - Granite State Mutual Manchester, NH Work Experience "
            "Java Developer Granite State Mutual - Manchester, NH August 2019 to Present Developed "
            "claims services in Java 8 and Spring Boot; deployed them on OpenShift. Associate "
            "Software Engineer Cognizant - Chennai, Tamil Nadu June 2016 to July 2019 Maintained a "
            "Struts and JSP portal for a US bank. Education Bachelor of Engineering in Computer "
            "Science Anna University - Chennai, Tamil Nadu 2012 to 2016 Skills Java (8 years), "
            "Spring Boot (5 years), JSP (3 years)"
        ),
        [("Anna University", "Bachelor's")],
        [("Granite State Mutual", span(8, 2019)), ("Cognizant", span(6, 2016, 7, 2019))],
        span(8, 2019) + span(6, 2016, 7, 2019),
    ),
    (
        "Front End Developer",
        (
            "UI Developer UI Developer UI Developer - Coastal Travel Group Miami, FL • Around 6 "
            "years of experience in HTML5, CSS3, JavaScript, Angular and React • Experience with "
            "responsive design and cross browser compatibility Work Experience UI Developer "
            "Coastal Travel Group - Miami, FL March 2020 to Present • Rebuilt the booking flow in "
            "Angular 12 • Wrote unit tests with Jasmine and Karma UI Developer Biscayne Media - "
            "Miami, FL January 2018 to February 2020 • Built email templates and landing pages "
            "Education Bachelor of Science in Information Technology Florida International "
            "University - Miami, FL 2013 to 2017 Skills Angular (4 years), React (2 years), HTML5 "
            "(6 years)"
        ),
        [("Florida International University", "Bachelor's")],
        [
            ("Coastal Travel Group", span(3, 2020)),
            ("Biscayne Media", span(1, 2018, 2, 2020)),
        ],
        6,
    ),
    (
        "Network Administrator",
        (
            "Network Engineer Network Engineer - Prairie Telecom Wichita, KS Work Experience "
            "Network Engineer Prairie Telecom - Wichita, KS October 2017 to Present * Design and "
            "support BGP and MPLS for 60 enterprise customers * Replaced Catalyst 6500 core "
            "switches with Nexus 9000 Network Administrator Sedgwick County - Wichita, KS June 2014 "
            "to September 2017 * Managed firewalls and the county's WAN Military Service Country: "
            "US Branch: Army Rank: Specialist January 2010 to January 2014 Education Bachelor of "
            "Applied Science in Information Technology Wichita State University - Wichita, KS 2012 "
            "to 2016 Skills BGP (7 years), Cisco (10 years), Palo Alto (4 years)"
        ),
        [("Wichita State University", "Bachelor's")],
        [("Prairie Telecom", span(10, 2017)), ("Sedgwick County", span(6, 2014, 9, 2017))],
        span(10, 2017) + span(6, 2014, 9, 2017),
    ),
    (
        "Project Manager",
        (
            "Project Manager Project Manager - Bluewater Software Tampa, FL Work Experience Project "
            "Manager Bluewater Software - Tampa, FL June 2016 to Present ? Deliver releases for a "
            "healthcare scheduling product with two Scrum teams ? Cut defect backlog by half in "
            "one year Business Analyst Raymond James - St. Petersburg, FL July 2012 to May 2016 ? "
            "Wrote requirements for the advisor portal Education MBA in Project Management "
            "University of South Florida - Tampa, FL 2014 to 2016 Bachelor of Arts in Economics "
            "University of Florida - Gainesville, FL 2008 to 2012 Skills Scrum (8 years), Jira (8 "
            "years), SQL (4 years)"
        ),
        [("University of Florida", "Bachelor's"), ("University of South Florida", "Master's")],
        [("Bluewater Software", span(6, 2016)), ("Raymond James", span(7, 2012, 5, 2016))],
        span(6, 2016) + span(7, 2012, 5, 2016),
    ),
    (
        "Python Developer",
        (
            "Python Developer Python Developer - Cedar Genomics Durham, NC Work Experience Python "
            "Developer Cedar Genomics - Durham, NC February 2021 to Present • Wrote variant calling "
            "pipelines in Python and Snakemake • Deployed workers on AWS Batch Research Assistant "
            "Duke University - Durham, NC August 2018 to January 2021 • Analysed sequencing data "
            "with NumPy and SciPy Education Master of Science in Bioinformatics Duke University - "
            "Durham, NC 2018 to 2020 Bachelor of Science in Biology North Carolina State University "
            "- Raleigh, NC 2014 to 2018 Skills Python (6 years), AWS (3 years), Linux (6 years)"
        ),
        [("North Carolina State University", "Bachelor's"), ("Duke University", "Master's")],
        [("Cedar Genomics", span(2, 2021)), ("Duke University", span(8, 2018, 1, 2021))],
        span(2, 2021) + span(8, 2018, 1, 2021),
    ),
    (
        "Security Analyst",
        (
            "Cyber Security Analyst Cyber Security Analyst - Ironclad Defense Solutions Huntsville, "
            "AL * 5 years of experience in security operations and vulnerability management Work "
            "Experience Cyber Security Analyst Ironclad Defense Solutions - Huntsville, AL April "
            "2019 to Present * Write Splunk correlation rules * Hunt threats with CrowdStrike "
            "Falcon IT Specialist Alabama Power - Birmingham, AL June 2017 to March 2019 * Managed "
            "endpoint patching Education Bachelor of Science in Cybersecurity Auburn University - "
            "Auburn, AL 2013 to 2017 Certifications/Licenses Security+ Present CEH Skills Splunk (5 "
            "years), CrowdStrike (3 years)"
        ),
        [("Auburn University", "Bachelor's")],
        [
            ("Ironclad Defense Solutions", span(4, 2019)),
            ("Alabama Power", span(6, 2017, 3, 2019)),
        ],
        5,
    ),
    (
        "Software Developer",
        (
            "Software Engineer Software Engineer - Microsoft Redmond, WA Work Experience Software "
            "Engineer Microsoft - Redmond, WA July 2019 to Present Build services for Azure "
            "storage in C#. Reduced p99 latency by 30%. Software Developer Expedia - Seattle, WA "
            "June 2016 to June 2019 Built hotel search features in Java and Scala. Software "
            "Developer Intern Amazon - Seattle, WA June 2015 to September 2015 Education Master of "
            "Science in Computer Science University of Washington - Seattle, WA 2014 to 2016 "
            "Bachelor of Engineering in Information Technology University of Pune 2010 to 2014 "
            "Skills C# (5 years), Java (3 years), Azure (5 years)"
        ),
        [("University of Pune", "Bachelor's"), ("University of Washington", "Master's")],
        [
            ("Microsoft", span(7, 2019)),
            ("Expedia", span(6, 2016, 6, 2019)),
            ("Amazon", span(6, 2015, 9, 2015)),
        ],
        span(7, 2019) + span(6, 2016, 6, 2019) + span(6, 2015, 9, 2015),
    ),
    (
        "Systems Administrator",
        (
            "Linux Systems Administrator Linux Systems Administrator - Summit Hosting Denver, CO "
            "Work Experience Linux Systems Administrator Summit Hosting - Denver, CO September "
            "2016 to Present • Run 900 RHEL and CentOS hosts with Puppet • Built monitoring with "
            "Nagios and Grafana Unix Administrator Front Range Insurance - Colorado Springs, CO "
            "March 2012 to August 2016 • Administered Solaris and AIX servers Education Bachelor of "
            "Science in Computer Science Colorado State University - Fort Collins, CO 2008 to 2012 "
            "Skills Linux (12 years), Puppet (7 years), Bash (12 years), Solaris (4 years)"
        ),
        [("Colorado State University", "Bachelor's")],
        [
            ("Summit Hosting", span(9, 2016)),
            ("Front Range Insurance", span(3, 2012, 8, 2016)),
        ],
        span(9, 2016) + span(3, 2012, 8, 2016),
    ),
    (
        "Web Developer",
        (
            "Full Stack Web Developer Full Stack Web Developer - Lantern Labs Columbus, OH Work "
            "Experience Full Stack Web Developer Lantern Labs - Columbus, OH November 2020 to "
            "Present ➢ Build Node.js and React applications for insurance clients ➢ Wrote GraphQL "
            "APIs over PostgreSQL Web Developer Buckeye Print Co - Dublin, OH March 2018 to October "
            "2020 ➢ Built the order portal in Laravel Education Bachelor of Science in Computer "
            "Science and Engineering Ohio State University - Columbus, OH 2014 to 2018 Skills "
            "Node.js (4 years), React (4 years), PostgreSQL (4 years), PHP (3 years)"
        ),
        [("Ohio State University", "Bachelor's")],
        [("Lantern Labs", span(11, 2020)), ("Buckeye Print Co", span(3, 2018, 10, 2020))],
        span(11, 2020) + span(3, 2018, 10, 2020),
    ),
    (
        "Database Administrator",
        (
            "SQL Server DBA SQL Server DBA - Harbor Freight Lines Long Beach, CA Work Experience SQL "
            "Server DBA Harbor Freight Lines - Long Beach, CA January 2018 to Present • Support "
            "SQL Server 2016 and 2019 clusters • Wrote SSIS packages for the data warehouse "
            "Database Developer Pacific Dental Partners - Irvine, CA February 2014 to December 2017 "
            "• Wrote stored procedures and SSRS reports Education Bachelor of Science in Computer "
            "Information Systems California State University, Long Beach - Long Beach, CA 2009 to "
            "2013 Skills SQL Server (10 years), SSIS (6 years), SSRS (8 years)"
        ),
        [("California State University, Long Beach", "Bachelor's")],
        [
            ("Harbor Freight Lines", span(1, 2018)),
            ("Pacific Dental Partners", span(2, 2014, 12, 2017)),
        ],
        span(1, 2018) + span(2, 2014, 12, 2017),
    ),
    (
        "Java Developer",
        (
            "Java Full Stack Developer Java Full Stack Developer - Capital One McLean, VA • Over 7 "
            "years of IT experience in Java, J2EE, Spring and Angular Work Experience Java Full "
            "Stack Developer Capital One - McLean, VA May 2020 to Present • Built credit card "
            "servicing APIs with Spring Boot • Wrote Angular 10 screens Java Developer Fannie Mae - "
            "Reston, VA September 2017 to April 2020 • Developed loan data services on WebLogic "
            "Java Developer Wipro - Bangalore, Karnataka June 2016 to August 2017 • Fixed defects "
            "in a telecom billing system Education Bachelor of Technology in Computer Science "
            "Jawaharlal Nehru Technological University 2012 to 2016 Skills Java (7 years), Spring "
            "(7 years), Angular (4 years)"
        ),
        [("Jawaharlal Nehru Technological University", "Bachelor's")],
        [
            ("Capital One", span(5, 2020)),
            ("Fannie Mae", span(9, 2017, 4, 2020)),
            ("Wipro", span(6, 2016, 8, 2017)),
        ],
        7,
    ),
    (
        "Front End Developer",
        (
            "Front End Engineer Front End Engineer - Sprocket Commerce Chicago, IL Work Experience "
            "Front End Engineer Sprocket Commerce - Chicago, IL August 2019 to Present * Own the "
            "checkout's Vue.js components * Improved Lighthouse scores from 60 to 95 Junior Web "
            "Developer Lakeview Creative - Chicago, IL June 2017 to July 2019 * Wrote Sass and "
            "JavaScript for agency sites Education Bachelor of Science in Computer Science DePaul "
            "University - Chicago, IL 2013 to 2017 Skills Vue.js (5 years), JavaScript (7 years), "
            "Sass (7 years)"
        ),
        [("DePaul University", "Bachelor's")],
        [
            ("Sprocket Commerce", span(8, 2019)),
            ("Lakeview Creative", span(6, 2017, 7, 2019)),
        ],
        span(8, 2019) + span(6, 2017, 7, 2019),
    ),
    (
        "Network Administrator",
        (
            "Network Administrator Network Administrator - Green Valley Credit Union Fresno, CA "
            "Network administrator with 4 years of experience supporting LAN/WAN, firewalls and "
            "VoIP Work Experience Network Administrator Green Valley Credit Union - Fresno, CA July "
            "2020 to Present • Maintain Fortinet firewalls at 11 branches • Rolled out a Cisco "
            "VoIP system Help Desk Analyst Fresno Pacific University - Fresno, CA January 2019 to "
            "June 2020 • Answered 40 tickets a day Education Bachelor of Science in Computer "
            "Science Fresno Pacific University - Fresno, CA 2015 to 2019 Skills Fortinet (4 years), "
            "VoIP (4 years), Windows Server (5 years)"
        ),
        [("Fresno Pacific University", "Bachelor's")],
        [
            ("Green Valley Credit Union", span(7, 2020)),
            ("Fresno Pacific University", span(1, 2019, 6, 2020)),
        ],
        4,
    ),
    (
        "Project Manager",
        (
            "Technical Project Manager Technical Project Manager - Orion Aerospace Phoenix, AZ Work "
            "Experience Technical Project Manager Orion Aerospace - Phoenix, AZ March 2015 to "
            "Present • Managed the avionics test lab build-out, $12M budget • Coordinated 5 vendor "
            "teams on the ERP upgrade Software Engineer Honeywell - Tempe, AZ June 2008 to February "
            "2015 • Wrote flight management software in C Education Master of Science in "
            "Engineering Management Arizona State University - Tempe, AZ 2011 to 2013 Bachelor of "
            "Science in Electrical Engineering University of Arizona - Tucson, AZ 2004 to 2008 "
            "Skills MS Project (9 years), PMP (9 years), C (7 years)"
        ),
        [("University of Arizona", "Bachelor's"), ("Arizona State University", "Master's")],
        [("Orion Aerospace", span(3, 2015)), ("Honeywell", span(6, 2008, 2, 2015))],
        span(3, 2015) + span(6, 2008, 2, 2015),
    ),
    (
        "Python Developer",
        (
            "Python/Django Developer Python/Django Developer - Flatiron Media New York, NY Work "
            "Experience Python/Django Developer Flatiron Media - New York, NY June 2018 to Present "
            "? Built the content API in Django REST Framework ? Moved Celery tasks to AWS Lambda "
            "Software Developer Accenture - Mumbai, Maharashtra July 2015 to May 2018 ? Wrote "
            "Python scripts for test automation Education Master of Science in Computer Science "
            "Stevens Institute of Technology - Hoboken, NJ 2016 to 2018 Bachelor of Engineering in "
            "Computer Engineering University of Mumbai 2011 to 2015 Skills Python (9 years), "
            "Django (6 years), AWS (4 years)"
        ),
        [("University of Mumbai", "Bachelor's"), ("Stevens Institute of Technology", "Master's")],
        [("Flatiron Media", span(6, 2018)), ("Accenture", span(7, 2015, 5, 2018))],
        span(6, 2018) + span(7, 2015, 5, 2018),
    ),
    (
        "Security Analyst",
        (
            "Security Analyst Security Analyst - Keystone Health Philadelphia, PA Work Experience "
            "Security Analyst Keystone Health - Philadelphia, PA October 2020 to Present * Run "
            "phishing simulations for 5,000 staff * Review firewall rule changes Security Intern "
            "Comcast - Philadelphia, PA May 2019 to August 2019 * Documented incident runbooks "
            "Education Master of Science in Cybersecurity Drexel University - Philadelphia, PA 2019 "
            "to 2020 Bachelor of Science in Information Science Temple University - Philadelphia, PA "
            "2015 to 2019 Skills Phishing (4 years), Firewalls (4 years), Python (3 years)"
        ),
        [("Temple University", "Bachelor's"), ("Drexel University", "Master's")],
        [("Keystone Health", span(10, 2020)), ("Comcast", span(5, 2019, 8, 2019))],
        span(10, 2020) + span(5, 2019, 8, 2019),
    ),
    (
        "Software Developer",
        (
            "Software Developer Software Developer - Maple Leaf Games Madison, WI Work Experience "
            "Software Developer Maple Leaf Games - Madison, WI April 2017 to Present Develop "
            "gameplay systems in C++ and Unreal Engine 4. Mentored three junior developers. "
            "Programmer Badger Interactive - Milwaukee, WI 2014 to 2017 Built tools in C# for the "
            "art team. Education Bachelor of Science in Computer Sciences University of Wisconsin-"
            "Madison - Madison, WI 2010 to 2014 Skills C++ (10 years), Unreal (7 years), C# (3 "
            "years)"
        ),
        [("University of Wisconsin-Madison", "Bachelor's")],
        [("Maple Leaf Games", span(4, 2017)), ("Badger Interactive", 2017 - 2014)],
        span(4, 2017) + 2017 - 2014,
    ),
    (
        "Systems Administrator",
        (
            "Systems Administrator Systems Administrator - Riverbend Manufacturing Dayton, OH * "
            "Eleven years of experience in Windows Server, Active Directory and VMware Work "
            "Experience Systems Administrator Riverbend Manufacturing - Dayton, OH June 2015 to "
            "Present * Migrated 400 mailboxes to Exchange Online * Run Veeam backups for 80 VMs "
            "Desktop Support Technician NCR - Dayton, OH May 2013 to May 2015 * Imaged and "
            "deployed 600 laptops Education Associate of Applied Business in Information Technology "
            "Sinclair Community College - Dayton, OH 2011 to 2013 Skills Active Directory (11 "
            "years), VMware (9 years), Veeam (6 years)"
        ),
        [("Sinclair Community College", "Bachelor's")],
        [("Riverbend Manufacturing", span(6, 2015)), ("NCR", span(5, 2013, 5, 2015))],
        11,
    ),
    (
        "Web Developer",
        (
            "WordPress Developer WordPress Developer - Self-employed Asheville, NC Work Experience "
            "WordPress Developer Self-employed - Asheville, NC March 2019 to Present • Built 45 "
            "WordPress themes and WooCommerce stores • Host client sites on DigitalOcean Web "
            "Developer Blue Ridge Outfitters - Asheville, NC January 2016 to February 2019 • "
            "Maintained the company site and email campaigns Education Bachelor of Arts in "
            "Communication Appalachian State University - Boone, NC 2011 to 2015 Skills WordPress "
            "(8 years), PHP (8 years), CSS (8 years)"
        ),
        [("Appalachian State University", "Bachelor's")],
        [
            ("Self-employed", span(3, 2019)),
            ("Blue Ridge Outfitters", span(1, 2016, 2, 2019)),
        ],
        span(3, 2019) + span(1, 2016, 2, 2019),
    ),
    (
        "Database Administrator",
        (
            "Database Administrator Database Administrator - Apex Retail Holdings Atlanta, GA Work "
            "Experience Database Administrator Apex Retail Holdings - Atlanta, GA August 2021 to "
            "Present • Run PostgreSQL and MySQL on AWS RDS • Wrote Terraform modules for database "
            "provisioning Database Administrator The Home Depot - Atlanta, GA June 2018 to July "
            "2021 • Supported Oracle and DB2 for the supply chain Junior DBA Georgia Institute of "
            "Technology - Atlanta, GA January 2017 to May 2018 Education Bachelor of Science in "
            "Computer Science Georgia State University - Atlanta, GA 2013 to 2017 Skills "
            "PostgreSQL (6 years), MySQL (6 years), Oracle (3 years)"
        ),
        [("Georgia State University", "Bachelor's")],
        [
            ("Apex Retail Holdings", span(8, 2021)),
            ("The Home Depot", span(6, 2018, 7, 2021)),
            ("Georgia Institute of Technology", span(1, 2017, 5, 2018)),
        ],
        span(8, 2021) + span(6, 2018, 7, 2021) + span(1, 2017, 5, 2018),
    ),
]


if __name__ == "__main__":
    write(CVS, "cvs_flat.jsonl")
