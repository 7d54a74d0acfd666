"""Writes cvs_layouts_heldout.jsonl: 10 more CVs in the layouts of cvs_layouts.jsonl
(anonymised job-board, Europass, one-line and pipe histories), written after the
extraction rules for those layouts were frozen and never used to change them. Same
labelling rules as write_cvs_layouts.py. Run: python -m tests.data.write_cvs_layouts_heldout
"""

from tests.data.write_cvs_layouts import GENERIC, span
from tests.data.write_cvs_small import write

CVS = [
    (
        "HR",
        (
            "HUMAN RESOURCES MANAGER\nSummary\nHR manager with 12 years of experience in "
            "employee relations.\nExperience\n04/2016 to Current\nHuman Resources Manager\n"
            "Company Name － City , State\nLed a team of 5 HR partners.\n03/2012 to 03/2016\nHR "
            "Coordinator\nCompany Name － City , State\nEducation\nMaster of Science : Human "
            "Resource Management , 2012\nCornell University － City , State"
        ),
        [("Cornell University", "Master's")],
        [(GENERIC, span(4, 2016)), (GENERIC, span(3, 2012, 3, 2016))],
        12,
    ),
    (
        "ACCOUNTANT",
        (
            "STAFF ACCOUNTANT\nExperience\nStaff Accountant Feb 2019 to Nov 2023\nCompany Name "
            "ï¼ City , State\nJunior Bookkeeper Jun 2016 to Jan 2019\nCompany Name ï¼ City , "
            "State\nEducation\nBachelor of Business Administration : Accounting , 2016\nTemple "
            "University ï¼ City , State"
        ),
        [("Temple University", "Bachelor's")],
        [(GENERIC, span(2, 2019, 11, 2023)), (GENERIC, span(6, 2016, 1, 2019))],
        span(2, 2019, 11, 2023) + span(6, 2016, 1, 2019),
    ),
    (
        "TEACHER",
        (
            "HIGH SCHOOL TEACHER\nProfessional Experience\nCompany Name City , State Science "
            "Teacher 08/2014 to Current\nTaught chemistry to grades 10 to 12.\nEducation\nMaster "
            "of Education , 2014 University of Georgia City , State\nBachelor of Science : "
            "Chemistry , 2012 Emory University City , State"
        ),
        [("Emory University", "Bachelor's"), ("University of Georgia", "Master's")],
        [(GENERIC, span(8, 2014))],
        span(8, 2014),
    ),
    (
        "ENGINEERING",
        (
            "Europass Curriculum Vitae\nWork experience\n01/04/2017 – Present Process Engineer\n"
            "BASF SE, Ludwigshafen (Germany)\n01/09/2013 – 31/03/2017 Graduate Engineer\nBayer "
            "AG, Leverkusen (Germany)\nEducation and training\n2008 – 2013 Diplom-Ingenieur "
            "Chemical Engineering\nKarlsruher Institut für Technologie"
        ),
        [("Karlsruher Institut für Technologie", "Bachelor's")],
        [("BASF", span(4, 2017)), ("Bayer", span(9, 2013, 3, 2017))],
        span(4, 2017) + span(9, 2013, 3, 2017),
    ),
    (
        "SALES",
        (
            "CURRICULUM VITAE\nWORK EXPERIENCE\n05/2018 – 12/2023 Area Sales Manager\nDanone "
            "S.A., Lyon (France)\n09/2014 – 04/2018 Sales Representative\nLactalis, Laval "
            "(France)\nEDUCATION AND TRAINING\n2011 – 2014 Bachelor in Management\nUniversité "
            "de Bordeaux"
        ),
        [("Université de Bordeaux", "Bachelor's")],
        [("Danone", span(5, 2018, 12, 2023)), ("Lactalis", span(9, 2014, 4, 2018))],
        span(5, 2018, 12, 2023) + span(9, 2014, 4, 2018),
    ),
    (
        "DATA-SCIENCE",
        (
            "PRIYA SHAH\nMachine Learning Engineer | Austin, TX\nEXPERIENCE\nDell Technologies — "
            "Austin, TX\nMachine Learning Engineer, Sep 2020 – Present\nTrained ranking models.\n"
            "Indeed — Austin, TX\nData Analyst, Jan 2018 – Aug 2020\nEDUCATION\nM.S. in Computer "
            "Science, University of Texas at Austin, 2017"
        ),
        [("University of Texas at Austin", "Master's")],
        [("Dell", span(9, 2020)), ("Indeed", span(1, 2018, 8, 2020))],  # the vocabulary's name
        span(9, 2020) + span(1, 2018, 8, 2020),
    ),
    (
        "FINANCE",
        (
            "Financial Analyst\nExperience\n2020–2024  Financial Analyst, Santander (Madrid)\n"
            "2017–2020  Junior Analyst, BBVA (Bilbao)\nEducation\n2013–2017  Degree in "
            "Economics, Universidad Carlos III de Madrid"
        ),
        [("Universidad Carlos III de Madrid", "Bachelor's")],
        [("Santander", 4), ("BBVA", 3)],
        7,
    ),
    (
        "CONSULTANT",
        (
            "IT Consultant\nWork experience\nCapgemini | Senior Consultant | Mar 2019 – Dec 2023\n"
            "Atos | Consultant | Sep 2016 – Feb 2019\nEducation\nMSc Information Systems | "
            "University of Amsterdam | 2016"
        ),
        [("University of Amsterdam", "Master's")],
        [("Capgemini", span(3, 2019, 12, 2023)), ("Atos", span(9, 2016, 2, 2019))],
        span(3, 2019, 12, 2023) + span(9, 2016, 2, 2019),
    ),
    (
        "CHEF",
        (
            "Head Chef – 9 years' experience in fine dining\nCAREER\nThe Ivy, Head Chef, 2019 "
            "to date\nDishoom, Sous Chef, 2015 to 2019\nEDUCATION\nProfessional Chef Diploma, "
            "Westminster Kingsway College (2014)"
        ),
        [("Westminster Kingsway College", "Bachelor's")],
        [("The Ivy", 5), ("Dishoom", 4)],
        9,
    ),
    (
        "HEALTHCARE",
        (
            "Physiotherapist\nEmployment\n- Mayo Clinic, Physical Therapist (2018-2024)\n- "
            "Kaiser Permanente, Therapy Assistant (2015-2018)\nEducation\n- Doctor of Physical "
            "Therapy, University of Southern California, 2018\n- BSc Kinesiology, University of "
            "Oregon, 2015"
        ),
        [("University of Oregon", "Bachelor's"), ("University of Southern California", "Master's")],
        [("Mayo Clinic", 6), ("Kaiser Permanente", 3)],
        9,
    ),
]

if __name__ == "__main__":
    write(CVS, "cvs_layouts_heldout.jsonl")
