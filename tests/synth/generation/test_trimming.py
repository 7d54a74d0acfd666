from synth.generation.trimming import cut_to_words, is_finished, trim_items, trim_slot


def test_cuts_the_unfinished_last_sentence():
    assert trim_slot(" I feel ill. The doctor said to rest and", 2) == "I feel ill."


def test_keeps_at_most_n_sentences_of_the_first_paragraph():
    raw = " One. Two! Three? Four.\n\nBest regards,\nAnna"
    assert trim_slot(raw, 2) == "One. Two!"
    assert trim_slot(raw, 10) == "One. Two! Three? Four."


def test_drops_sign_offs_and_placeholders():
    assert trim_slot(" I need help.\nBest regards,\nAnna", 5) == "I need help."
    assert trim_slot(" Call me. Signed, [Your Name].", 5) == "Call me."


def test_nothing_whole_gives_empty():
    assert trim_slot(" and then the", 2) == ""


def test_is_finished():
    assert not is_finished(" I am", 1)
    assert is_finished(" I am ill. ", 1)
    assert is_finished(" I am\n\nok", 3)


def test_a_list_without_a_full_stop_is_kept_to_its_last_whole_item():
    cut = " Python, SQL, machine learning, Python, Tableau, deep lear"
    assert trim_slot(cut, 3) == "Python, SQL, machine learning, Tableau"
    assert trim_slot(" English, Spanish and French\n\nHOBBIES", 3) == "English, Spanish and French"
    assert trim_slot(" - Excel; - Payroll\nLICENSES", 3) == "Excel, Payroll"
    assert (
        trim_slot(" Project Management; Strategic Planning; Business Intelligence; Prod", 3)
        == "Project Management, Strategic Planning, Business Intelligence"
    )


def test_bullet_lines_are_a_list_up_to_the_first_line_that_is_not_one():
    # Shapes SmolLM2 writes after "Skills:" (benchmarks' probe of the CV skills slot).
    raw = "\n- AWS Certified Developer (EC2)\n- Azure Machine Learning Engineer (AMLE)\n- Cloud Native\n\n"
    assert trim_slot(raw, 3) == (
        "AWS Certified Developer (EC2), Azure Machine Learning Engineer (AMLE), Cloud Native"
    )
    raw = "\n- Project Management\n- Sales\n- IT/Tech\nMACHINE WORKING ENGINES OF THE WORLD\n\n"
    assert trim_slot(raw, 3) == "Project Management, Sales, IT/Tech"
    # The token limit cut the last bullet: it is dropped; numbered lines count as bullets.
    assert trim_slot("\n1. Payroll\n2. Recruiting\n3. Onboard", 3) == "Payroll, Recruiting"


def test_prose_or_template_talk_cut_at_a_comma_is_not_a_list():
    assert trim_slot(" I have worked with many teams across Europe and Asia, and then I", 3) == ""
    assert trim_slot(" [Skill 1], [Skill 2], [Skill 3]\n", 3) == ""
    assert trim_slot(" Python\n", 3) == ""
    assert trim_slot("\n- Scrum master (TJ)\nFounder's role:\nI am proud to be part of a", 3) == ""
    assert (
        trim_slot(
            "\n- Led the migration of every payroll system we ran in Europe to the cloud"
            "\n- Python\n",
            3,
        )
        == ""
    )
    assert trim_slot(" Best regards, Anna, HR\n", 3) == ""


def test_a_slot_that_opens_a_list_item_keeps_its_whole_lines():
    # SmolLM2 after "Key responsibilities:\n- ": it continues the prompt's bullet, items
    # without full stops, so trim_slot keeps nothing (the slot used to end empty).
    raw = " Ran payroll for two sites\n- Hired a team of four\n- Wrote the leave policy\n\n"
    assert trim_slot(raw, 3) == ""
    assert trim_items(raw, "Key responsibilities:\n- ") == (
        "Ran payroll for two sites\n- Hired a team of four\n- Wrote the leave policy"
    )
    # After a label the items are listed inline; a heading line ends them.
    raw = (
        "\n* Certified Payroll Professional\n**Lean Six Sigma Green Belt**\nAwards:\nBest team\n\n"
    )
    assert trim_slot(raw, 3) == ""
    assert trim_items(raw, "CERTIFICATIONS\nCertifications: ") == (
        "Certified Payroll Professional, Lean Six Sigma Green Belt"
    )
    # One whole line is an item; the line the token limit cut is not.
    assert trim_items(" Certified Scrum Master (2019)\nThe course", "TRAINING\n- ") == (
        "Certified Scrum Master (2019)"
    )
    assert trim_items(" Certified Scrum Master (2019) and the", "TRAINING\n- ") == ""


def test_list_lines_stop_at_prose_and_only_list_openings_take_them():
    long_line = " ".join(["word"] * 17)
    assert trim_items(f" Payroll\n- {long_line}\n- Hiring\n\n", "\n- ") == "Payroll"
    # Fixed text that does not open an item (a ticket's sentence, a hyphen in a word).
    assert trim_items(" Payroll\n- Hiring\n\n", "I would like to ask about ") == ""
    assert trim_items(" Payroll\n- Hiring\n\n", "I work part-") == ""


def test_cut_to_words_keeps_whole_sentences_and_the_sign_off():
    text = (
        "Dear HR,\n\nI need two weeks off. My mother is ill and I must care for her. "
        "It is hard.\n\nSecond paragraph here. More.\n\nBest,\nAnna"
    )
    assert cut_to_words(text, 6) == "Dear HR,\n\nI need two weeks off.\n\nBest,\nAnna"
    assert cut_to_words(text, 12) == (
        "Dear HR,\n\nI need two weeks off. My mother is ill and I must care for her.\n\nBest,\nAnna"
    )
    assert cut_to_words(text, 100) == text


def test_abbreviations_and_decimals_do_not_end_a_sentence():
    raw = "The raise is approx. 7 percent, i.e. about €3,000 a year. I hope so. More."
    assert trim_slot(raw, 2) == (
        "The raise is approx. 7 percent, i.e. about €3,000 a year. I hope so."
    )
    raw = "It rose 2.5 percent in Jan. last year, e.g. for Dr. Rossi and Mr. Li etc. and more. Yes."
    assert trim_slot(raw, 1) == (
        "It rose 2.5 percent in Jan. last year, e.g. for Dr. Rossi and Mr. Li etc. and more."
    )
    # every listed abbreviation, capitalised or not, mid-sentence
    from synth.generation.trimming import ABBREVIATIONS, count_sentence_ends

    for abbreviation in ABBREVIATIONS:
        for written in (abbreviation, abbreviation.capitalize()):
            assert count_sentence_ends(f"See {written} below and stop. Done.") == 2, written
    assert count_sentence_ends("The answer was no. Then we left.") == 2


def test_years_claimed_reads_digits_words_and_decades():
    from synth.generation.trimming import years_claimed

    text = "12+ years in QA, a 15-year career, two decades of work, nine years abroad, 2019."
    assert years_claimed(text) == [12, 15, 20, 9]
    assert years_claimed("less than a year") == [] and years_claimed("1 year") == [1]


def test_the_model_answering_the_email_is_no_part_of_it():
    """Issue 81: after a question, SmolLM2 often answers it as a Q&A page would."""
    raw = " That's a pretty big difference.\nA: The answer is no, it isn't true"
    assert trim_slot(raw, 2) == "That's a pretty big difference."
    assert trim_slot(" I am ill since Sunday. A: Sorry to hear that.", 2) == (
        "I am ill since Sunday."
    )
    assert trim_slot("\nThe answer to this question is: 1.", 2) == ""
    assert trim_slot("\nOptions: (1). No.", 2) == ""
    assert trim_slot(" I'm in Nice? Me: (smiling) Ah, la France.", 2) == "I'm in Nice?"
    # the words themselves, inside a sentence, are the sender's
    kept = " I asked my manager and the answer is still no. Plan A: wait."
    assert trim_slot(kept, 2) == "I asked my manager and the answer is still no. Plan A: wait."
