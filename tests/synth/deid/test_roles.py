from synth.deid.analyzer.roles import resolve_roles, ticket_kind
from tests.taxonomy_design import design_roles


def test_a_date_in_a_health_ticket_is_the_absence_start():
    tags = ["O", "B-date", "I-date", "O", "B-reason", "I-reason", "B-number_of_days"]
    assert resolve_roles(tags, design_roles()) == [
        "O", "B-date_start_absence", "I-date_start_absence", "O",
        "B-reason", "I-reason", "B-number_of_days",
    ]  # fmt: skip


def test_a_travel_ticket_keeps_its_roles_and_moves_a_shift_date():
    tags = ["B-location", "O", "B-airport", "B-date"]
    assert resolve_roles(tags, design_roles()) == [
        "B-location", "O", "B-airport", "B-date_travel",
    ]  # fmt: skip


def test_a_day_count_beside_a_place_is_a_stay():
    tags = ["B-location", "O", "B-number_of_days", "I-number_of_days"]
    assert resolve_roles(tags, design_roles()) == [
        "B-location", "O", "B-duration", "I-duration",
    ]  # fmt: skip


def test_no_kind_on_a_tie_or_no_role_leaves_the_tags():
    roles_of = {"A": {"x", "shared"}, "B": {"y", "shared"}}
    assert ticket_kind(["shared"], roles_of) is None
    assert ticket_kind(["x", "shared"], roles_of) == "A"
    assert ticket_kind([], roles_of) is None
    assert resolve_roles(["O", "O"], design_roles()) == ["O", "O"]


def test_pieces_are_joined_when_no_kind_is_found():
    # a day count alone is a role of two kinds (a tie), yet '3' 'days' is one span
    tags = ["O", "B-number_of_days", "B-number_of_days", "O"]
    assert ticket_kind(["number_of_days", "number_of_days"], design_roles()) is None
    assert resolve_roles(tags, design_roles()) == [
        "O", "B-number_of_days", "I-number_of_days", "O",
    ]  # fmt: skip


def test_a_clause_role_decides_a_tie_of_generic_ones_and_pieces_are_joined():
    # reason (health) beside a date: health, though 'date' is the shift ticket's role
    tags = ["B-reason", "I-reason", "B-date", "B-date_start_absence", "I-date_start_absence"]
    assert resolve_roles(tags, design_roles()) == [
        "B-reason", "I-reason",
        "B-date_start_absence", "I-date_start_absence", "I-date_start_absence",
    ]  # fmt: skip


def test_a_person_word_in_a_raise_ticket_is_part_of_the_job_title():
    tags = ["B-work_title", "I-work_title", "B-to_who", "O", "B-salary", "B-increase_in_percentage"]
    assert resolve_roles(tags, design_roles()) == [
        "B-work_title", "I-work_title", "I-work_title", "O", "B-salary",
        "B-increase_in_percentage",
    ]  # fmt: skip


def test_a_complaint_or_shift_reason_in_a_ticket_of_another_kind_is_dropped():
    tags = ["B-location", "O", "B-date", "B-airport", "B-reason_of_change", "I-reason_of_change"]
    assert resolve_roles(tags, design_roles()) == [
        "B-location", "O", "B-date_travel", "B-airport", "O", "O",
    ]  # fmt: skip


ACCOMMODATION = "Ask information_Accommodation"


def test_a_kind_the_classifier_read_gates_every_clause_type_and_the_person():
    tags = ["B-location", "O", "B-complaint", "I-complaint", "B-to_who", "B-reason", "I-reason"]
    assert resolve_roles(tags, design_roles(), ACCOMMODATION) == [
        "B-location", "O", "O", "O", "O", "O", "O",
    ]  # fmt: skip
    # read from the roles alone, the clauses make it a complaint, and they all stay
    assert resolve_roles(tags, design_roles())[2:] == [
        "B-complaint", "I-complaint", "B-to_who", "B-complaint", "I-complaint",
    ]  # fmt: skip


def test_a_read_kind_moves_a_clause_to_its_own_clause_type():
    tags = ["B-complaint", "I-complaint", "O", "B-number_of_days"]
    assert resolve_roles(tags, design_roles(), "Life event_Health issues") == [
        "B-reason", "I-reason", "O", "B-number_of_days",
    ]  # fmt: skip
    # a complaint ticket keeps its complaint however the roles read
    tags = ["B-reason", "I-reason", "B-to_who"]
    assert resolve_roles(tags, design_roles(), "Complaint_Complaint") == [
        "B-complaint", "I-complaint", "B-to_who",
    ]  # fmt: skip


def test_an_unknown_kind_falls_back_to_the_roles():
    tags = ["B-location", "O", "B-date", "B-airport", "B-reason_of_change", "I-reason_of_change"]
    assert resolve_roles(tags, design_roles(), None) == resolve_roles(tags, design_roles())
