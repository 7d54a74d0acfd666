"""Writes cvs_layouts.jsonl: 32 CVs we wrote by hand in layouts unlike the development
corpus's, with hand labels: anonymised job-board CVs ("Company Name － City , State",
"01/2017 to Current"), Europass-style CVs ("01/03/2016 – 31/08/2021", employer and place
on the line below), compact one-line histories and pipe tables, from the US, the UK and
continental Europe.

Written before the extraction rules for these layouts were changed; the rules were then
changed for the failure kinds a new user reported (placeholders taken as employers,
numeric date ranges giving 0 years, job titles taken as employers), so these numbers are
for a set written knowing those kinds, not a held-out one.

Labelling rules, as write_cvs_small.py's plus: an anonymised employer ("Company Name")
is ("Generic Company", its years); an employer is named without its legal form (Inc.,
LLP, AG, SE, S.A., S.p.A.); years per employer follow `span` (whole months counted
inclusively, rounded to whole years; an open end, "present", is 2024 and its months are
ignored); a degree not among Bachelor's/Master's/PhD (Associate, PGCE, J.D., Licence as
a Bachelor's only where it is one) takes the count rule. Run:
python -m tests.data.write_cvs_layouts
"""

from tests.data.write_cvs_small import write

GENERIC = "Generic Company"


def span(m1: int, y1: int, m2: int | None = None, y2: int | None = None) -> int:
    """Years of a job from month m1 of y1 to month m2 of y2 (None: present, 2024)."""
    if y2 is None:
        return 2024 - y1
    months = (y2 - y1) * 12 + (m2 - m1 + 1)
    return int(months / 12 + 0.5)


A = " － City , State"  # the anonymised job board's employer line
MOJIBAKE = " ï¼ City , State"  # the same, read with the wrong encoding

CVS = [
    # ---------------- anonymised job-board layout ----------------
    (
        "ACCOUNTANT",
        "ACCOUNTANT\nSummary\nDetail-oriented accountant with 7 years of experience in month-end "
        "close and reconciliations.\nExperience\n01/2017 to Current\nSenior Accountant\nCompany Name"
        + A
        + "\nPrepared monthly financial statements.\n05/2014 to 12/2016\nStaff Accountant\n"
        "Company Name" + A + "\nReconciled bank accounts.\nEducation\nBachelor of Science : "
        "Accounting , 2014\nUniversity of Florida" + A,
        [("University of Florida", "Bachelor's")],
        [(GENERIC, span(1, 2017)), (GENERIC, span(5, 2014, 12, 2016))],
        7,
    ),
    (
        "TEACHER",
        "TEACHER\nProfessional Summary\nCaring elementary teacher.\nExperience\nTeacher 08/2015 to "
        "06/2020\nCompany Name" + A + "\nPlanned lessons for 25 students.\nTeacher Assistant "
        "09/2012 to 06/2015\nCompany Name" + A + "\nEducation and Training\nMaster of Arts : "
        "Education , 2015\nUniversity of Michigan" + A + "\nBachelor of Arts : English , 2012\n"
        "Ohio State University",
        [("Ohio State University", "Bachelor's"), ("University of Michigan", "Master's")],
        [(GENERIC, span(8, 2015, 6, 2020)), (GENERIC, span(9, 2012, 6, 2015))],
        span(8, 2015, 6, 2020) + span(9, 2012, 6, 2015),
    ),
    (
        "CHEF",
        "CHEF\nSkills\nMenu planning, food safety, inventory\nWork History\nExecutive Chef, 03/2018 "
        "to Current\nCompany Name – City, State\nLed a kitchen team of 12.\nSous Chef, 06/2013 to "
        "02/2018\nCompany Name – City, State\nEducation\nAssociate of Applied Science: Culinary "
        "Arts, 2013\nJohnson & Wales University" + A,
        [("Johnson & Wales University", "Bachelor's")],
        [(GENERIC, span(3, 2018)), (GENERIC, span(6, 2013, 2, 2018))],
        span(3, 2018) + span(6, 2013, 2, 2018),
    ),
    (
        "AVIATION",
        "AVIATION MAINTENANCE TECHNICIAN\nHighlights\nFAA Airframe and Powerplant certificate\n"
        "Experience\nAircraft Mechanic Jan 2016 to Current\nCompany Name" + MOJIBAKE + "\n"
        "Inspected and repaired turbine engines.\nLine Technician Jun 2011 to Dec 2015\n"
        "Company Name" + MOJIBAKE + "\nEducation\nAssociate : Aviation Maintenance Technology , "
        "2011\nEmbry-Riddle Aeronautical University" + MOJIBAKE,
        [("Embry-Riddle Aeronautical University", "Bachelor's")],
        [(GENERIC, span(1, 2016)), (GENERIC, span(6, 2011, 12, 2015))],
        span(1, 2016) + span(6, 2011, 12, 2015),
    ),
    (
        "BANKING",
        "BANKING RELATIONSHIP MANAGER\nExecutive Profile\nRelationship manager with over 9 years "
        "in retail banking.\nProfessional Experience\nRelationship Manager\nOctober 2019 to "
        "Current Company Name" + A + "\nManaged a portfolio of 300 clients.\nPersonal Banker\n"
        "March 2015 to September 2019 Company Name" + A + "\nEducation\nMBA : Finance , 2019 "
        "Rutgers University" + A + "\nBachelor of Science : Economics , 2014 Pennsylvania State "
        "University" + A,
        [("Pennsylvania State University", "Bachelor's"), ("Rutgers University", "Master's")],
        [(GENERIC, span(10, 2019)), (GENERIC, span(3, 2015, 9, 2019))],
        9,
    ),
    (
        "HR",
        (
            "HR GENERALIST\nSummary\nHR generalist with 6 years of experience in benefits and "
            "onboarding.\nExperience\n02/2020 to 11/2023 HR Generalist Company Name City , State\n"
            "Ran onboarding for 400 hires.\n06/2017 to 01/2020 HR Assistant Company Name City , "
            "State\nEducation\nBachelor of Arts , Psychology 2017 Arizona State University City , "
            "State"
        ),
        [("Arizona State University", "Bachelor's")],
        [(GENERIC, span(2, 2020, 11, 2023)), (GENERIC, span(6, 2017, 1, 2020))],
        6,
    ),
    (
        "DESIGNER",
        (
            "DESIGNER\nProfile\nGraphic designer.\nWork Experience\nCompany Name\nCity , State\n"
            "Senior Graphic Designer\n04/2018 - 03/2023\nDesigned packaging for 40 product lines.\n"
            "Company Name\nCity , State\nJunior Designer\n07/2015 - 03/2018\nEducation\nBachelor of "
            "Fine Arts, Graphic Design\nSavannah College of Art and Design"
        ),
        [("Savannah College of Art and Design", "Bachelor's")],
        [(GENERIC, span(4, 2018, 3, 2023)), (GENERIC, span(7, 2015, 3, 2018))],
        span(4, 2018, 3, 2023) + span(7, 2015, 3, 2018),
    ),
    (
        "CONSULTANT",
        "CONSULTANT\nCareer Overview\nManagement consultant.\nCore Accomplishments\nCut client "
        "costs by 12%.\nProfessional Experience\nSenior Consultant 09/2016 to Current Current "
        "Company Name" + A + "\nLed supply chain projects.\nAnalyst 08/2013 to 08/2016 Company "
        "Name" + A + "\nEducation\nMaster of Business Administration , 2013 Boston University" + A,
        [("Boston University", "Master's")],
        [(GENERIC, span(9, 2016)), (GENERIC, span(8, 2013, 8, 2016))],
        span(9, 2016) + span(8, 2013, 8, 2016),
    ),
    (
        "FITNESS",
        (
            "FITNESS TRAINER\nSummary\nCertified personal trainer.\nExperience\nPersonal Trainer\n"
            "September 2018 to Current\nCompany Name\nDesigned training plans for 60 clients.\nGym "
            "Attendant\nMay 2015 to August 2018\nCompany Name\nEducation\nBachelor of Science : "
            "Kinesiology\nUniversity of Minnesota"
        ),
        [("University of Minnesota", "Bachelor's")],
        [(GENERIC, span(9, 2018)), (GENERIC, span(5, 2015, 8, 2018))],
        span(9, 2018) + span(5, 2015, 8, 2018),
    ),
    (
        "BUSINESS-DEVELOPMENT",
        (
            "BUSINESS DEVELOPMENT MANAGER\nProfessional Summary\nBusiness development manager with "
            "11 years of experience in B2B software sales.\nExperience\nCompany Name City , State "
            "Business Development Manager 03/2016 to Current\nGrew annual revenue by 30%.\nCompany "
            "Name City , State Account Executive 06/2013 to 02/2016\nEducation\nMaster of Business "
            "Administration : Marketing 2013 Georgia Institute of Technology City , State"
        ),
        [("Georgia Institute of Technology", "Master's")],
        [(GENERIC, span(3, 2016)), (GENERIC, span(6, 2013, 2, 2016))],
        11,
    ),
    (
        "ARTS",
        "ARTS PROGRAM COORDINATOR\nExperience\nProgram Coordinator , 01/2019 to 12/2023\n"
        "Company Name" + A + "\nCurated 12 exhibitions per year.\nGallery Assistant , 01/2016 to "
        "12/2018\nCompany Name" + A + "\nEducation\nMaster of Fine Arts , 2015\nRhode Island "
        "School of Design" + A + "\nBachelor of Arts : Art History , 2013\nUniversity of "
        "California, Davis" + A,
        [
            ("University of California, Davis", "Bachelor's"),
            ("Rhode Island School of Design", "Master's"),
        ],
        [(GENERIC, span(1, 2019, 12, 2023)), (GENERIC, span(1, 2016, 12, 2018))],
        span(1, 2019, 12, 2023) + span(1, 2016, 12, 2018),
    ),
    (
        "ENGINEERING",
        (
            "ELECTRICAL ENGINEER\nSummary\nElectrical engineer, 5 years of experience in substation "
            "design.\nExperience\nElectrical Engineer 2019-07 to 2024-06\nCompany Name - City, State\n"
            "Designed 15 substations.\nEducation\nBachelor of Science in Electrical Engineering, 2019\n"
            "Purdue University - City, State"
        ),
        [("Purdue University", "Bachelor's")],
        [(GENERIC, span(7, 2019, 6, 2024))],
        5,
    ),
    (
        "INFORMATION-TECHNOLOGY",
        "INFORMATION TECHNOLOGY SPECIALIST\nSkills\nActive Directory, VMware, Cisco networking\n"
        "Experience\n11/2017 to Current\nIT Specialist\nCompany Name" + A + "\n08/2012 to "
        "10/2017\nHelp Desk Technician\nCompany Name" + A + "\nEducation and Training\n2012\n"
        "Associate of Science : Information Technology\nIvy Tech Community College" + A,
        [("Ivy Tech Community College", "Bachelor's")],
        [(GENERIC, span(11, 2017)), (GENERIC, span(8, 2012, 10, 2017))],
        span(11, 2017) + span(8, 2012, 10, 2017),
    ),
    (
        "HEALTHCARE",
        "REGISTERED NURSE\nSummary\nRN with 14 years of experience in intensive care.\nExperience\n"
        "Charge Nurse Jul 2015 to Current Company Name" + MOJIBAKE + "\nStaff Nurse Aug 2010 to "
        "Jun 2015 Company Name" + MOJIBAKE + "\nEducation\nBachelor of Science : Nursing , 2010 "
        "University of Pennsylvania" + MOJIBAKE,
        [("University of Pennsylvania", "Bachelor's")],
        [(GENERIC, span(7, 2015)), (GENERIC, span(8, 2010, 6, 2015))],
        14,
    ),
    (
        "SALES",
        (
            "SALES ASSOCIATE\nProfessional Summary\nRetail sales associate.\nWork History\nSales "
            "Associate, 10/2020 - 09/2023\nCompany Name - City, State\nSales Associate, 06/2018 - "
            "09/2020\nCompany Name - City, State\nEducation\nHigh School Diploma\nLincoln High School "
            "- City, State"
        ),
        [],
        [(GENERIC, span(10, 2020, 9, 2023)), (GENERIC, span(6, 2018, 9, 2020))],
        span(10, 2020, 9, 2023) + span(6, 2018, 9, 2020),
    ),
    # ---------------- Europass-style layout ----------------
    (
        "INFORMATION-TECHNOLOGY",
        (
            "Europass Curriculum Vitae\nPERSONAL INFORMATION\nJonas Weber\nWORK EXPERIENCE\n"
            "01/03/2016 – 31/08/2021 Software Developer\nSiemens AG, Munich (Germany)\n▪ Developed "
            "control software in C++.\n01/09/2021 – Present Senior Software Engineer\nSAP SE, "
            "Walldorf (Germany)\n▪ Cloud services.\nEDUCATION AND TRAINING\n01/10/2011 – 30/09/2015 "
            "Bachelor of Science in Computer Science\nTechnische Universität München, Munich (Germany)"
        ),
        [("Technical University of Munich", "Bachelor's")],  # the vocabulary's name
        [("Siemens", span(3, 2016, 8, 2021)), ("SAP", span(9, 2021))],
        span(3, 2016, 8, 2021) + span(9, 2021),
    ),
    (
        "ENGINEERING",
        (
            "CURRICULUM VITAE\nWork experience\n02/2017 – present Mechanical Design Engineer\nBrembo "
            "S.p.A., Bergamo (Italy)\nDesign of brake calipers.\n09/2014 – 01/2017 Junior Engineer\n"
            "Pirelli, Milan (Italy)\nEducation and training\n2012 – 2014 Master's degree in "
            "Mechanical Engineering\nPolitecnico di Milano\n2009 – 2012 Bachelor's degree in "
            "Mechanical Engineering\nUniversità di Pisa"
        ),
        [("Università di Pisa", "Bachelor's"), ("Politecnico di Milano", "Master's")],
        [("Brembo", span(2, 2017)), ("Pirelli", span(9, 2014, 1, 2017))],
        span(2, 2017) + span(9, 2014, 1, 2017),
    ),
    (
        "FINANCE",
        (
            "Curriculum vitae\nExpérience professionnelle / Work experience\n10/2018 – 12/2023 "
            "Financial Controller\nL'Oréal, Clichy (France)\nBudgeting and reporting.\n09/2015 – "
            "09/2018 Audit Associate\nMazars, Paris (France)\nEducation\n2013 – 2015 Master in "
            "Finance, Université Paris-Dauphine\n2010 – 2013 Licence en économie, Université de Lille"
        ),
        [("Université de Lille", "Bachelor's"), ("Université Paris-Dauphine", "Master's")],
        [("L'Oréal", span(10, 2018, 12, 2023)), ("Mazars", span(9, 2015, 9, 2018))],
        span(10, 2018, 12, 2023) + span(9, 2015, 9, 2018),
    ),
    (
        "SALES",
        (
            "CURRÍCULUM VITAE\nWORK EXPERIENCE\n03/2019 – Present Key Account Manager\nTelefónica "
            "S.A., Madrid (Spain)\n06/2016 – 02/2019 Sales Representative\nMapfre, Valencia (Spain)\n"
            "EDUCATION AND TRAINING\n2012 – 2016 Degree in Business Administration\nUniversitat de "
            "València, Valencia (Spain)"
        ),
        [("Universitat de València", "Bachelor's")],
        [("Telefónica", span(3, 2019)), ("Mapfre", span(6, 2016, 2, 2019))],
        span(3, 2019) + span(6, 2016, 2, 2019),
    ),
    (
        "HEALTHCARE",
        (
            "Europass CV\nWork experience\n01/02/2014 – 31/01/2020 Registered Nurse\nErasmus MC, "
            "Rotterdam (Netherlands)\n01/02/2020 – present Nurse Practitioner\nUMC Utrecht, Utrecht "
            "(Netherlands)\nEducation and training\n2010 – 2014 Bachelor of Nursing\nHogeschool "
            "Rotterdam\n2017 – 2019 Master Advanced Nursing Practice\nErasmus Universiteit Rotterdam"
        ),
        [("Hogeschool Rotterdam", "Bachelor's"), ("Erasmus Universiteit Rotterdam", "Master's")],
        [("Erasmus MC", span(2, 2014, 1, 2020)), ("UMC Utrecht", span(2, 2020))],
        span(2, 2014, 1, 2020) + span(2, 2020),
    ),
    (
        "TEACHER",
        (
            "CURRICULUM VITAE\nEmployment history\nSeptember 2016 – July 2023: Teacher of "
            "Mathematics, Harris Academy Bermondsey, London\nSeptember 2013 – August 2016: Teaching "
            "Assistant, St Mary's Primary School, Leeds\nQualifications\n2012 – 2013 PGCE Secondary "
            "Mathematics, University of Leeds\n2009 – 2012 BSc Mathematics, University of Sheffield"
        ),
        [("University of Sheffield", "Bachelor's"), ("University of Leeds", "Master's")],
        [
            ("Harris Academy Bermondsey", span(9, 2016, 7, 2023)),
            ("St Mary's Primary School", span(9, 2013, 8, 2016)),
        ],
        span(9, 2016, 7, 2023) + span(9, 2013, 8, 2016),
    ),
    (
        "ACCOUNTANT",
        (
            "Curriculum Vitae Europass\nEsperienza professionale / Work experience\n01/01/2015 – "
            "31/12/2019 Accountant\nEni S.p.A., San Donato Milanese (Italy)\n01/01/2020 – present "
            "Senior Accountant\nDeloitte & Touche S.p.A., Milan (Italy)\nIstruzione e formazione / "
            "Education\n2010 – 2014 Laurea Magistrale in Economia\nUniversità degli Studi di Milano"
        ),
        [("Università degli Studi di Milano", "Master's")],
        [("Eni", span(1, 2015, 12, 2019)), ("Deloitte & Touche", span(1, 2020))],
        span(1, 2015, 12, 2019) + span(1, 2020),
    ),
    # ---------------- US chronological, one-line histories, pipe tables ----------------
    (
        "DATA-SCIENCE",
        (
            "JORDAN LEE\nData Scientist | Seattle, WA\nEXPERIENCE\nAmazon — Seattle, WA\nData "
            "Scientist II, Jun 2019 – Present\nBuilt demand forecasting models in Python.\nZillow — "
            "Seattle, WA\nData Analyst, Aug 2016 – May 2019\nEDUCATION\nM.S. in Statistics, "
            "University of Washington, 2016\nB.S. in Mathematics, Purdue University, 2014"
        ),
        [("Purdue University", "Bachelor's"), ("University of Washington", "Master's")],
        [("Amazon", span(6, 2019)), ("Zillow", span(8, 2016, 5, 2019))],
        span(6, 2019) + span(8, 2016, 5, 2019),
    ),
    (
        "ADVOCATE",
        (
            "RESUME\nAlexandra Moore, Esq.\nPROFESSIONAL EXPERIENCE\nAssociate Attorney | Baker "
            "McKenzie LLP | Chicago, IL | 2018 – Present\nCommercial litigation and contract disputes.\n"
            "Law Clerk | Illinois Appellate Court | Chicago, IL | 2016 – 2018\nEDUCATION\nJ.D., "
            "Northwestern University, 2016\nB.A. in Political Science, University of Illinois "
            "Urbana-Champaign, 2013"
        ),
        [
            ("University of Illinois Urbana-Champaign", "Bachelor's"),
            ("Northwestern University", "Master's"),
        ],
        [("Baker McKenzie", 2024 - 2018), ("Illinois Appellate Court", 2018 - 2016)],
        8,
    ),
    (
        "DIGITAL-MEDIA",
        (
            "Emma Rossi\nMarketing Manager\n\nExperience\n2019–2024  Marketing Manager, Unilever "
            "(London)\n2015–2019  Brand Executive, Nestlé (Milan)\n\nEducation\n2013–2015  MSc "
            "Marketing, Università Bocconi\n2010–2013  BA Economics, Università di Bologna"
        ),
        [("Università di Bologna", "Bachelor's"), ("Università Bocconi", "Master's")],
        [("Unilever", 5), ("Nestlé", 4)],
        9,
    ),
    (
        "CONSTRUCTION",
        (
            "Site Manager – 12 years' experience in residential construction\nCAREER\nBalfour Beatty, "
            "Site Manager, 2016 to date\nTaylor Wimpey, Assistant Site Manager, 2012 to 2016\n"
            "EDUCATION\nHNC Construction, Leeds College of Building (2011)\nBSc (Hons) Construction "
            "Management, Sheffield Hallam University (2015)"
        ),
        [
            ("Leeds College of Building", "Bachelor's"),
            ("Sheffield Hallam University", "Bachelor's"),
        ],
        [("Balfour Beatty", 2024 - 2016), ("Taylor Wimpey", 4)],
        12,
    ),
    (
        "AGRICULTURE",
        (
            "AGRONOMIST\nProfile: agronomist with 10 years of field experience.\nEmployment\n- "
            "Syngenta, Field Agronomist (2017-2024)\n- Bayer CropScience, Research Technician "
            "(2014-2017)\nEducation\n- MSc Agronomy, Wageningen University, 2014\n- BSc Plant "
            "Science, University of Nebraska, 2012"
        ),
        [("University of Nebraska", "Bachelor's"), ("Wageningen University", "Master's")],
        [("Syngenta", 7), ("Bayer CropScience", 3)],
        10,
    ),
    (
        "BPO",
        (
            "Customer Support Team Lead\nExperience: 2018 - Present | Teleperformance | Team Lead\n"
            "2015 - 2018 | Concentrix | Customer Service Agent\nEducation: Bachelor of Commerce, "
            "University of Mumbai, 2015"
        ),
        [("University of Mumbai", "Bachelor's")],
        [("Teleperformance", 6), ("Concentrix", 3)],
        9,
    ),
    (
        "AUTOMOBILE",
        (
            "AUTOMOTIVE TECHNICIAN\nASE certified technician with 8 years of hands-on experience.\n"
            "WORK HISTORY\nToyota of Boston, Boston MA — Master Technician (2019 - Present)\nJiffy "
            "Lube, Quincy MA — Lube Technician (2016 - 2019)\nEDUCATION\nAssociate Degree, Automotive "
            "Technology — Universal Technical Institute, 2016"
        ),
        [("Universal Technical Institute", "Bachelor's")],
        [("Toyota of Boston", 5), ("Jiffy Lube", 3)],
        8,
    ),
    (
        "PUBLIC-RELATIONS",
        (
            "PR Specialist\nWork experience\nEdelman | Senior Account Executive | Jan 2020 – Dec 2023\n"
            "Weber Shandwick | Account Executive | Jul 2017 – Dec 2019\nEducation\nBA Communications | "
            "University of Texas at Austin | 2017"
        ),
        [("University of Texas at Austin", "Bachelor's")],
        [("Edelman", span(1, 2020, 12, 2023)), ("Weber Shandwick", span(7, 2017, 12, 2019))],
        span(1, 2020, 12, 2023) + span(7, 2017, 12, 2019),
    ),
    (
        "APPAREL",
        (
            "Fashion Merchandiser\nSummary\nMerchandiser with a background in womenswear buying.\n"
            "Experience\nZara (Inditex), A Coruña — Merchandiser — 2019 to present\nMango, Barcelona — "
            "Assistant Buyer — 2016 to 2019\nEducation\nGrado en Diseño de Moda, Universidad "
            "Politécnica de Madrid, 2016"
        ),
        [("Universidad Politécnica de Madrid", "Bachelor's")],
        [("Zara", 5), ("Mango", 3)],
        8,
    ),
    (
        "DIGITAL-MEDIA",
        (
            "Video Producer\nProfile\nProducer of branded video content.\nExperience\nBuzzFeed, New "
            "York: Senior Video Producer, March 2018 – present\nVice Media, New York: Associate "
            "Producer, June 2015 – February 2018\nEducation\nBFA Film Production, New York "
            "University, 2015"
        ),
        [("New York University", "Bachelor's")],
        [("BuzzFeed", span(3, 2018)), ("Vice Media", span(6, 2015, 2, 2018))],
        span(3, 2018) + span(6, 2015, 2, 2018),
    ),
]

if __name__ == "__main__":
    write(CVS, "cvs_layouts.jsonl")
