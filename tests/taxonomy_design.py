"""The eight subcategories of the design (the thesis's taxonomy) and their variables. Tests
that pin what these eight do take them from here, as a subset of whatever the taxonomy
holds: a subcategory added as data (docs/extending.md) changes none of their results."""

DESIGN_LABELS = {
    "Ask information_Accommodation": {"location", "duration"},
    "Complaint_Complaint": {"complaint", "to_who"},
    "Timetable change_Shift change": {"date", "reason_of_change"},
    "Salary_Salary raise": {"salary", "increase_in_percentage", "work_title"},
    "Salary_Gender pay gap": {"wage_gap"},
    "Life event_Health issues": {"date_start_absence", "number_of_days", "reason"},
    "Life event_Personal issues": {"description_life_event", "number_of_days"},
    "Refund_Refund travel": {"location", "date_travel", "airport"},
}


def design_labels() -> list[str]:
    """The design's labels in the taxonomy's order (its file names)."""
    from synth.kinds.tickets.taxonomy import load_taxonomy

    return [label for label in load_taxonomy() if label in DESIGN_LABELS]


def design_roles() -> dict[str, set[str]]:
    """synth.deid.analyzer.roles.ticket_roles for the design's subcategories only."""
    from synth.deid.analyzer.roles import ticket_roles

    return {k: v for k, v in ticket_roles().items() if k in DESIGN_LABELS}
