"""Writes cvs_heldout.jsonl: 10 more hand-written, hand-labelled CVs, written after the
extraction rules were fixed and never used to change them: the extraction numbers on
this file are the honest ones (README, "CV extraction"). Same labelling rules as
write_cvs_small.py; "present" means 2024. Run: python -m tests.data.write_cvs_heldout
"""

from tests.data.write_cvs_small import write

CVS = [
    (
        "Java Developer",
        (
            "Curriculum Vitae\nAnkit Sharma\nProfessional Experience\nSoftware Engineer - Mindtree "
            "(Mar 2017 - Feb 2021)\nDeveloped Spring MVC modules.\nSenior Engineer - Mphasis (Mar 2021 - "
            "present)\nAcademic Qualification\nB.Tech (CSE) from Rajasthan Technical University in 2016"
        ),
        [("Rajasthan Technical University", "Bachelor's")],
        [("Mindtree", 4), ("Mphasis", 3)],
        7,
    ),
    (
        "HR",
        (
            "Priya Nair, HR professional with over 5 years of experience in payroll.\n"
            "Employer: Kotak Mahindra Bank, 2019-2024.\nQualification: MBA (HR) - University of Kerala, "
            "2019; B.Com - University of Calcutta, 2017."
        ),
        [("University of Calcutta", "Bachelor's"), ("Kerala University", "Master's")],
        [("Kotak Mahindra Bank", 5)],
        5,
    ),
    (
        "Data Science",
        (
            "Education Details \nJanuary 2019 M.Tech Data Science Vellore, Tamil Nadu Vellore Institute "
            "of Technology\nJanuary 2017 B.E Computer Chennai, Tamil Nadu Anna University\nData Scientist "
            "\n\nCompany Details \ncompany - Flipkart\ndescription - Recommendation systems from 2019 to "
            "2023."
        ),
        [("Anna University", "Bachelor's"), ("Vellore Institute of Technology", "Master's")],
        [("Flipkart", 4)],
        4,
    ),
    (
        "Civil Engineer",
        (
            "Site engineer. I have been with Tata Steel for 2 years, and earlier I spent 3 years with "
            "Gammon India on bridge works. Education: Diploma in Civil Engineering and later a B.E. "
            "from Shivaji University."
        ),
        [("Shivaji University", "Bachelor's")],
        [("Tata Steel", 2), ("Gammon India", 3)],
        5,
    ),
    (
        "Sales",
        (
            "<ul><li><b>Zomato</b>, Sales Lead, 2021 – 2024</li><li><b>Paytm</b>, Field Sales, 2018 – "
            "2021</li></ul><p>MBA, Indian Institute of Technology Delhi (2018)</p><p>BBA, Punjab "
            "University (2016)</p>"
        ),
        [("Punjab University", "Bachelor's"), ("Indian Institute of Technology Delhi", "Master's")],
        [("Zomato", 3), ("Paytm", 3)],
        6,
    ),
    (
        "Java Developer",
        (
            "JAVA DEVELOPER\nWork experience: 3 years\nCOGNIZANT - Programmer Analyst - 2021 to 2024\n"
            "EDUCATION\nBACHELOR OF ENGINEERING, SINHGAD COLLEGE OF ENGINEERING, PUNE, 2021"
        ),
        [("Sinhgad College of Engineering", "Bachelor's")],
        [("Cognizant", 3)],
        3,
    ),
    (
        "HR",
        (
            "About me: recruiter who loves people. Worked at Adecco between 2016 and 2020 and at "
            "Siemens from 2020 to 2023. Studied psychology at Heidelberg University (Master's degree)."
        ),
        [("Heidelberg University", "Master's")],
        [("Adecco", 4), ("Siemens", 3)],
        7,
    ),
    (
        "Data Science",
        (
            "Research scientist. PhD, University of Edinburgh, 2020. MSc, University College London, "
            "2016. BSc, University of Delhi, 2015. Google, Research Scientist, 2020 - 2024."
        ),
        [
            ("University of Delhi", "Bachelor's"),
            ("University College London", "Master's"),
            ("University of Edinburgh", "PhD"),
        ],
        [("Google", 4)],
        4,
    ),
    (
        "Civil Engineer",
        (
            "Education Details \nJanuary 2014 B.E Civil Nagpur, Maharashtra Nagpur University\n"
            "Project Engineer \n\nCompany Details \ncompany - Afcons Infrastructure Ltd\ndescription - "
            "Metro viaduct works from June 2014 to May 2019.\ncompany - Shapoorji Pallonji\ndescription "
            "- Planning engineer since 2019."
        ),
        [("Rashtrasant Tukadoji Maharaj Nagpur University", "Bachelor's")],
        [("Afcons Infrastructure", 5), ("Shapoorji Pallonji", 5)],
        10,
    ),
    (
        "Sales",
        (
            "Sales manager with 11 yrs experience in FMCG. Hindustan Unilever (2013-2018); Godrej "
            "(2018-2024). Graduated from Osmania University."
        ),
        [("Osmania University", "Bachelor's")],
        [("Hindustan Unilever", 5), ("Godrej", 6)],
        11,
    ),
]


if __name__ == "__main__":
    write(CVS, "cvs_heldout.jsonl")
