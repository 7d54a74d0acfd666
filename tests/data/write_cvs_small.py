"""Writes cvs_small.jsonl: 30 short CVs we wrote by hand, with hand labels.

Kept as a script so the texts and their labels sit side by side and can be reviewed;
the JSONL it writes is what tests and `hrsynth extract` read. Labels follow the rules in
README "CV extraction": post-secondary institutions only (schools and boards are not
universities), canonical names from synth/data/cv/*.yaml, degree as stated or else by
the count rule, years per employer rounded to whole years, total years as stated or
else the sum over employers. "present" means 2024 (extract with --as-of 2024).
Run: python -m tests.data.write_cvs_small
"""

import json
from pathlib import Path

CVS = [
    # ---------------- Java Developer ----------------
    (
        "Java Developer",
        (
            "Education Details \nJune 2014 B.E Computer Engineering Pune, Maharashtra University of Pune\n"
            "Java Developer \n\nSkill Details \nJava, Spring Boot, Hibernate- Exprience - 60 months\n"
            "Company Details \ncompany - Infosys\ndescription - Worked from 2014 to 2019 on banking "
            "applications using Java and Spring."
        ),
        [("University of Pune", "Bachelor's")],
        [("Infosys", 5)],
        5,
    ),
    (
        "Java Developer",
        (
            "SUMMARY\nBackend engineer with 6 years of experience building Java microservices.\n\n"
            "EXPERIENCE\nSenior Java Developer, Tata Consultancy Services (2018 - 2024)\n"
            "Built REST services with Spring Boot and Kafka for a retail client.\n"
            "Junior Developer, Cybage Software (2017 - 2018)\nMaintained Struts applications.\n\n"
            "EDUCATION\nM.Tech in Computer Science, Vellore Institute of Technology, 2017\n"
            "B.Tech in Information Technology, Anna University, 2015"
        ),
        [("Anna University", "Bachelor's"), ("Vellore Institute of Technology", "Master's")],
        [("Tata Consultancy Services", 6), ("Cybage Software", 1)],
        6,
    ),
    (
        "Java Developer",
        (
            "<h2>Profile</h2><p>I am a Java developer from Nagpur. I worked at Persistent Systems for "
            "3 years and before that at Zensar Technologies for 2 years.</p><h2>Education</h2>"
            "<p>Bachelor of Engineering, Rashtrasant Tukadoji Maharaj Nagpur University, 2014</p>"
            "<p>HSC, Maharashtra State Board, 2010</p>"
        ),
        [("Rashtrasant Tukadoji Maharaj Nagpur University", "Bachelor's")],
        [("Persistent Systems", 3), ("Zensar Technologies", 2)],
        5,
    ),
    (
        "Java Developer",
        (
            "Education Details \nJanuary 2016 MCA Pune, Maharashtra Savitribai Phule Pune University\n"
            "January 2013 B.Sc Computer Science Pune, Maharashtra Fergusson College\n"
            "Skill Details \nCore Java, J2EE, JSP, Servlets- Exprience - 48 months\n"
            "Company Details \ncompany - Tata Consultancy Services\ndescription - Java developer from "
            "2016 to 2020 for an insurance client. Age 29."
        ),
        [("Fergusson College", "Bachelor's"), ("University of Pune", "Master's")],
        [("Tata Consultancy Services", 4)],
        4,
    ),
    (
        "Java Developer",
        (
            "Java programmer with total experience of 8 years.\nWORK HISTORY\n"
            "Infosys | Technology Lead | 2019 - 2024\nWipro | Software Engineer | 2016 - 2019\n"
            "EDUCATION\nB.E. (Electronics), Visvesvaraya Technological University, 2016\n"
            "Interests: cricket, chess"
        ),
        [("Visvesvaraya Technological University", "Bachelor's")],
        [("Infosys", 5), ("Wipro", 3)],
        8,
    ),
    (
        "Java Developer",
        (
            "Name: Rahul Kale\nObjective: To work as a Java developer in a growing company.\n"
            "Education: University of Mumbai, graduated 2020.\nExperience: Capgemini, Java trainee "
            "from 2020 to 2022; Accenture, Java developer since 2022 (till date).\nLanguages: "
            "English, Hindi, Marathi"
        ),
        [("University of Mumbai", "Bachelor's")],
        [("Capgemini", 2), ("Accenture", 2)],
        4,
    ),
    # ---------------- HR ----------------
    (
        "HR",
        (
            "Education Details \nJanuary 2012 MBA HR Pune, Maharashtra Symbiosis International "
            "University\nJanuary 2010 B.Com Pune, Maharashtra University of Pune\n"
            "HR Executive \n\nSkill Details \nRecruitment, Payroll- Exprience - 72 months\n"
            "Company Details \ncompany - Teamlease\ndescription - HR executive from 2012 to 2018 "
            "handling recruitment and onboarding."
        ),
        [("University of Pune", "Bachelor's"), ("Symbiosis International University", "Master's")],
        [("Teamlease", 6)],
        6,
    ),
    (
        "HR",
        (
            "PROFESSIONAL SUMMARY\nHuman resources generalist with 9 years of experience in talent "
            "acquisition and employee relations.\n\nEMPLOYMENT\nHR Business Partner, Accenture, "
            "2019 - 2024\nHR Generalist, Randstad, 2015 - 2019\n\nEDUCATION\nMaster of Arts in "
            "Personnel Management, University of Leeds, 2015\nBachelor of Arts, University of "
            "Delhi, 2013"
        ),
        [("University of Delhi", "Bachelor's"), ("University of Leeds", "Master's")],
        [("Accenture", 5), ("Randstad", 4)],
        9,
    ),
    (
        "HR",
        (
            "I am an HR recruiter. I joined Manpower Group in 2017 and worked there for 4 years, then "
            "moved to Infosys where I have been a talent acquisition specialist for 3 years. I hold a "
            "degree from Osmania University. Hobbies: reading, yoga."
        ),
        [("Osmania University", "Bachelor's")],
        [("Manpower Group", 4), ("Infosys", 3)],
        7,
    ),
    (
        "HR",
        (
            "Education Details \nJanuary 2015 PGDM HR Mumbai, Maharashtra University of Mumbai\n"
            "January 2012 BMS Mumbai, Maharashtra University of Mumbai\nHR Manager \n\n"
            "Company Details \ncompany - HDFC Bank\ndescription - Payroll and compliance from 2015 "
            "to 2021.\ncompany - Godrej\ndescription - HR manager from 2021 to 2024."
        ),
        [("University of Mumbai", "Bachelor's"), ("University of Mumbai", "Master's")],
        [("HDFC Bank", 6), ("Godrej", 3)],
        9,
    ),
    (
        "HR",
        (
            "<div><b>HR Officer</b></div><div>Experience: Tech Mahindra (Jan 2018 - Dec 2021), "
            "Wipro (Jan 2022 - Dec 2023)</div><div>Education: MBA, Symbiosis International University; "
            "BBA, University of Pune</div>"
        ),
        [("University of Pune", "Bachelor's"), ("Symbiosis International University", "Master's")],
        [("Tech Mahindra", 4), ("Wipro", 2)],
        6,
    ),
    (
        "HR",
        (
            "Career objective: seeking a role in human resources.\nEducation: B.A. Psychology, "
            "Gujarat University (2019); M.A. Industrial Psychology, Maharaja Sayajirao University of "
            "Baroda (2021)\nInternship: Reliance Industries, 6 months in 2021.\nWork: Tata Consultancy "
            "Services, HR associate, 2022 - 2024."
        ),
        [
            ("Gujarat University", "Bachelor's"),
            ("Maharaja Sayajirao University of Baroda", "Master's"),
        ],
        [("Reliance Industries", 1), ("Tata Consultancy Services", 2)],
        3,
    ),
    # ---------------- Data Science ----------------
    (
        "Data Science",
        (
            "Data scientist with 5 years of experience in machine learning and NLP.\n\nEXPERIENCE\n"
            "Data Scientist, Amazon, 2021 - 2024\nAnalyst, Mu Sigma, 2019 - 2021\n\nEDUCATION\n"
            "PhD in Statistics, Indian Institute of Science, 2019\nM.Sc Mathematics, University of "
            "Pune, 2014\nB.Sc Mathematics, University of Pune, 2012"
        ),
        [
            ("University of Pune", "Bachelor's"),
            ("University of Pune", "Master's"),
            ("Indian Institute of Science", "PhD"),
        ],
        [("Amazon", 3), ("Mu Sigma", 2)],
        5,
    ),
    (
        "Data Science",
        (
            "Education Details \nJanuary 2017 B.Tech Computer Science Hyderabad, Telangana Jawaharlal "
            "Nehru Technological University\nData Scientist \n\nSkill Details \nPython, Pandas, "
            "Scikit-learn- Exprience - 36 months\nCompany Details \ncompany - Deloitte\ndescription - "
            "Built churn models from 2017 to 2020."
        ),
        [("Jawaharlal Nehru Technological University", "Bachelor's")],
        [("Deloitte", 3)],
        3,
    ),
    (
        "Data Science",
        (
            "<p>Machine learning engineer, 4 years of experience.</p><ul><li>IBM, 2020-2024: "
            "forecasting and recommendation models</li></ul><p>Education: Master of Science in Data "
            "Science, University of Manchester; Bachelor of Engineering, University of Mumbai</p>"
        ),
        [("University of Mumbai", "Bachelor's"), ("University of Manchester", "Master's")],
        [("IBM", 4)],
        4,
    ),
    (
        "Data Science",
        (
            "Aspiring data scientist. Studied at Indian Institute of Technology Bombay and then at "
            "Carnegie Mellon University. Worked at Tata Consultancy Services for 2 years on analytics "
            "dashboards. Skills: Python, SQL, TensorFlow. I am 27 years old."
        ),
        [
            ("Indian Institute of Technology Bombay", "Bachelor's"),
            ("Carnegie Mellon University", "Master's"),
        ],
        [("Tata Consultancy Services", 2)],
        2,
    ),
    (
        "Data Science",
        (
            "Education Details \nJanuary 2018 M.Sc Statistics Pune, Maharashtra University of Pune\n"
            "Data Analyst \n\nCompany Details \ncompany - Infosys\ndescription - Data analyst from "
            "2018 to 2021.\ncompany - Cognizant\ndescription - Data scientist from 2021 to 2024."
        ),
        [("University of Pune", "Master's")],
        [("Infosys", 3), ("Cognizant", 3)],
        6,
    ),
    (
        "Data Science",
        (
            "DATA SCIENTIST\nExperience: HCL Technologies, 2016 - 2023 (7 years). Projects in "
            "computer vision and time series.\nEducation: B.E. in Computer Engineering, Gujarat "
            "Technological University, 2016.\nLanguages: English, Gujarati."
        ),
        [("Gujarat Technological University", "Bachelor's")],
        [("HCL Technologies", 7)],
        7,
    ),
    # ---------------- Civil Engineer ----------------
    (
        "Civil Engineer",
        (
            "Education Details \nJanuary 2013 B.E Civil Engineering Pune, Maharashtra University of "
            "Pune\nSite Engineer \n\nCompany Details \ncompany - Larsen & Toubro\ndescription - Site "
            "engineer on highway projects from 2013 to 2018.\ncompany - Shapoorji Pallonji\n"
            "description - Project engineer from 2018 to 2023."
        ),
        [("University of Pune", "Bachelor's")],
        [("Larsen & Toubro", 5), ("Shapoorji Pallonji", 5)],
        10,
    ),
    (
        "Civil Engineer",
        (
            "Civil engineer with 12 years of experience in bridges and metro rail.\nEMPLOYMENT\n"
            "Afcons Infrastructure, Senior Engineer, 2015 - 2024\nGammon India, Engineer, 2012 - 2015\n"
            "EDUCATION\nM.Tech Structural Engineering, Indian Institute of Technology Madras, 2012\n"
            "B.E. Civil, Anna University, 2010"
        ),
        [("Anna University", "Bachelor's"), ("Indian Institute of Technology Madras", "Master's")],
        [("Afcons Infrastructure", 9), ("Gammon India", 3)],
        12,
    ),
    (
        "Civil Engineer",
        (
            "I studied civil engineering at Politecnico di Milano. After graduating I worked for "
            "Hindustan Construction Company for 3 years as a site engineer on tunnel projects."
        ),
        [("Politecnico di Milano", "Bachelor's")],
        [("Hindustan Construction Company", 3)],
        3,
    ),
    (
        "Civil Engineer",
        (
            "<h3>Civil Engineer</h3><p>Experience</p><ul><li>Larsen & Toubro (2016 - 2020)</li>"
            "<li>Tata Projects (2020 - 2024)</li></ul><p>Education</p><ul><li>B.Tech Civil, "
            "Dr. Babasaheb Ambedkar Technological University</li></ul>"
        ),
        [("Dr. Babasaheb Ambedkar Technological University", "Bachelor's")],
        [("Larsen & Toubro", 4), ("Tata Projects", 4)],
        8,
    ),
    (
        "Civil Engineer",
        (
            "Education Details \nJanuary 2019 Diploma Civil Engineering Nashik, Maharashtra "
            "Government Polytechnic\nJanuary 2016 S.S.C. Maharashtra Board\nJunior Engineer \n\n"
            "Company Details \ncompany - Godrej\ndescription - Junior engineer from 2019 to 2022."
        ),
        [("Government Polytechnic", "Bachelor's")],
        [("Godrej", 3)],
        3,
    ),
    (
        "Civil Engineer",
        (
            "PROFILE\nStructural engineer, 6 years of experience.\nEXPERIENCE\nSiemens, Building "
            "Engineer, 2018 - 2024\nEDUCATION\nMSc Civil Engineering, Technical University of Munich, "
            "2018\nBSc Civil Engineering, University of Bologna, 2016"
        ),
        [("University of Bologna", "Bachelor's"), ("Technical University of Munich", "Master's")],
        [("Siemens", 6)],
        6,
    ),
    # ---------------- Sales ----------------
    (
        "Sales",
        (
            "Education Details \nJanuary 2014 MBA Marketing Pune, Maharashtra University of Pune\n"
            "January 2012 B.B.A. Pune, Maharashtra University of Pune\nSales Manager \n\nSkill Details "
            "\nSALES- Exprience - 104 months\nCompany Details \ncompany - Bajaj Auto\ndescription - "
            "Area sales manager from 2014 to 2022."
        ),
        [("University of Pune", "Bachelor's"), ("University of Pune", "Master's")],
        [("Bajaj Auto", 8)],
        8,
    ),
    (
        "Sales",
        (
            "SALES EXECUTIVE\nSummary: 4 years of experience in B2B sales.\nExperience:\nBharti "
            "Airtel, Sales Executive, 2020 - 2024\nEducation:\nB.Com, University of Calcutta, 2019"
        ),
        [("University of Calcutta", "Bachelor's")],
        [("Bharti Airtel", 4)],
        4,
    ),
    (
        "Sales",
        (
            "I have worked in sales for 10 years. I spent 6 years at Hindustan Unilever as a sales "
            "officer and 4 years at ITC as a territory manager. I have an MBA from Symbiosis "
            "International University and a BBA from Amity University."
        ),
        [("Amity University", "Bachelor's"), ("Symbiosis International University", "Master's")],
        [("Hindustan Unilever", 6), ("ITC", 4)],
        10,
    ),
    (
        "Sales",
        (
            "<p><b>Key account manager</b></p><p>Work: Tata Consultancy Services (2015 - 2019), "
            "Oracle (2019 - 2024)</p><p>Education: Bachelor of Commerce, University of Mumbai</p>"
        ),
        [("University of Mumbai", "Bachelor's")],
        [("Tata Consultancy Services", 4), ("Oracle", 5)],
        9,
    ),
    (
        "Sales",
        (
            "Education Details \nJanuary 2017 B.Com Kolhapur, Maharashtra Shivaji University\n"
            "Sales Officer \n\nCompany Details \ncompany - HDFC Bank\ndescription - Sales officer for "
            "retail loans from 2017 to 2020.\ncompany - Kotak Mahindra Bank\ndescription - Relationship "
            "manager from 2020 to 2024."
        ),
        [("Shivaji University", "Bachelor's")],
        [("HDFC Bank", 3), ("Kotak Mahindra Bank", 4)],
        7,
    ),
    (
        "Sales",
        (
            "Sales professional. Employment: Infosys, inside sales, 2021 - 2024. Education: "
            "University of Texas at Austin, BBA, 2021. Hobbies: football, travelling."
        ),
        [("University of Texas at Austin", "Bachelor's")],
        [("Infosys", 3)],
        3,
    ),
]


def write(cvs: list, name: str) -> None:
    """(role, text, universities, companies, total) tuples -> JSONL beside this script."""
    out = Path(__file__).with_name(name)
    with out.open("w", encoding="utf-8") as f:
        for role, text, universities, companies, total in cvs:
            f.write(
                json.dumps(
                    {
                        "text": text,
                        "label": role,
                        "gold": {
                            "universities": [list(u) for u in universities],
                            "companies": [list(c) for c in companies],
                            "total_years": total,
                        },
                    }
                )
                + "\n"
            )
    print(f"{len(cvs)} CVs written to {out}")


if __name__ == "__main__":
    write(CVS, "cvs_small.jsonl")
