"""A writing profile (`hrsynth profile`, synth/style/) turned into generate's settings:
traits, a length per label, the weights of the surface forms and the label mix.

A knob is set so that the *measured* feature of the output moves from the default
tickets' (the prior the profile carries) to the profile's: a knob the default config
sets is scaled by profile / prior (a greeting the feature reader misses in the default
tickets it misses in the user's too, so the ratio cancels it); one it leaves at 0 is set
to the share of tickets that must change. Forms and labels are the profile's shares.
Everything here reads the released profile only: post-processing, no ε.
"""

import math
from dataclasses import dataclass

from synth import ConfigError

FORMAT = "hrsynth writing profile 1"
MAX_OMISSION = 0.95  # a variable is never left out of every ticket: its label needs it
OPEN = 1.4  # the open last bucket of a length or slip share ends at 1.4 × its bound


@dataclass(frozen=True)
class ProfileSettings:
    traits: dict  # the config's `traits:` with the profile's values
    lengths: dict  # label -> {mean, sd} target words (a label the profile lacks: traits')
    form_weights: dict  # kind -> {form: weight} (a kind nobody wrote: forms.yaml's)
    label_weights: dict | None  # label -> share; None: the profile has no label mix
    template_weights: dict  # label -> {template id: weight}: Private Evolution's, or {}
    omission: dict  # label -> {variable: rate left out}: from the `written` histogram, or {}
    about: dict  # what the manifest and the card say about the profile


def check_profile(doc, where: str) -> dict:
    """`doc` if it is a profile generate can use: its format, then its fields' types and
    each histogram read the way `settings` reads them (a hand-edited or truncated profile
    is one line naming the file, never a trace from deep inside generate)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ConfigError(
            f"{where} is not a writing profile ('format: {FORMAT}'); write one with "
            "`hrsynth profile --texts … --epsilon … --output …`"
        )
    problem = _shape_problem(doc)
    if problem is None:
        try:
            settings(doc, {"length": {"mean": 40.0, "sd": 20.0}}, list(_labels(doc)))
        except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError) as e:
            problem = f"cannot be read ({type(e).__name__}: {str(e)[:60]})"
    if problem:
        raise ConfigError(f"{where} is damaged: {problem}; write it again with `hrsynth profile`")
    return doc


def _shape_problem(doc: dict) -> str | None:
    """What is wrong with the fields every profile has, or None."""
    number = (int, float)
    for key, kind in {
        "epsilon": number,
        "tickets": int,
        "ledger": dict,
        "histograms": dict,
    }.items():
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            return f"'{key}' is missing or not a {kind.__name__ if isinstance(kind, type) else 'number'}"
    if not isinstance(doc.get("private"), bool):
        return "'private' is missing or not true/false"
    if not isinstance(doc.get("evolution") or {}, dict):
        return "'evolution' is not an object"
    for name, hist in doc["histograms"].items():
        if not isinstance(hist, dict) or not isinstance(hist.get("categories"), list):
            return f"histogram '{name}' has no list of categories"
        n = len(hist["categories"])
        if not all(isinstance(c, str) for c in hist["categories"]):
            return f"histogram '{name}' has a category that is not text"
        for field in ("distribution", "prior"):
            values = hist.get(field)
            if not (
                isinstance(values, list)
                and len(values) == n
                and all(
                    isinstance(v, number)
                    and not isinstance(v, bool)
                    and math.isfinite(v)
                    and v >= 0
                    for v in values
                )
            ):
                return f"histogram '{name}' {field} is not {n} numbers ≥ 0"
    return None


def _labels(doc: dict) -> set[str]:
    """The labels the profile's length histogram names ('label|bucket')."""
    cats = doc["histograms"].get("length", {}).get("categories", [])
    return {c.split("|")[0] for c in cats if "|" in c}


def load_profile(path: str, where: str) -> dict:
    """The checked profile document at `path` (a file or URI); `where` names the setting."""
    from synth.io.storage import exists, filesystem, read_json

    fs, inside = filesystem(path)
    if not exists(fs, inside):
        raise ConfigError(f"{where}: no such file; write it with `hrsynth profile`")
    try:
        doc = read_json(fs, inside)
    except (OSError, ValueError):  # a folder, unreadable, not UTF-8 or not JSON
        doc = None
    return check_profile(doc, where)


def shares(profile: dict, name: str, field: str = "distribution") -> dict[str, float]:
    hist = profile["histograms"].get(name)
    return dict(zip(hist["categories"], hist[field])) if hist else {}


def prior_shares(profile: dict, name: str) -> dict[str, float]:
    """The default tickets' shares the profile was blended with (it carries them)."""
    return shares(profile, name, "prior")


def _midpoints(categories) -> dict[str, float]:
    """Each bucket's midpoint by its name ('<=30' after '<=15' -> 22.5; the open last one,
    '>320', at 1.2 × its bound), read from the profile's own category names."""
    mids, low = {}, 0.0
    for name in categories:
        bound = float(name.split("|")[-1].lstrip("<=>"))
        key = name.split("|")[-1]
        if key.startswith(">"):
            mids[key] = (bound + OPEN * bound) / 2
        else:
            mids[key], low = (low + bound) / 2, bound
    return mids


def _mean_sd(dist: dict[str, float], mids: dict[str, float]) -> tuple[float, float] | None:
    total = math.fsum(dist.values())
    if total <= 0:
        return None
    mean = math.fsum(p * mids[c] for c, p in dist.items()) / total
    var = math.fsum(p * (mids[c] - mean) ** 2 for c, p in dist.items()) / total
    return mean, math.sqrt(var)


def _scaled(knob: float, profile_share: float, prior_share: float) -> float:
    """A knob the default config sets: scaled by profile / prior, kept a probability."""
    if prior_share <= 0:
        return min(max(profile_share, 0.0), 1.0)
    return min(max(knob * profile_share / prior_share, 0.0), 1.0)


def _added(profile_share: float, prior_share: float) -> float:
    """A knob the default config leaves at 0: the share of tickets to change so that the
    prior's share (tickets that are so by themselves) reaches the profile's."""
    return min(max((profile_share - prior_share) / (1 - prior_share), 0.0), 1.0)


def _by_label(dist: dict[str, float], label: str) -> dict[str, float]:
    """A label's buckets, or every bucket of an unlabelled length."""
    mine = {c.split("|")[1]: p for c, p in dist.items() if c.startswith(f"{label}|")}
    return mine or {c: p for c, p in dist.items() if "|" not in c}


def _lengths(profile: dict, traits: dict, labels: list[str]) -> dict:
    """Per label, the default length target scaled by the profile's words / the prior's."""
    default = traits.get("length")
    if not default:
        return {}
    mids = _midpoints(profile["histograms"]["length"]["categories"])
    out = {}
    for label in labels:
        got = _mean_sd(_by_label(shares(profile, "length"), label), mids)
        base = _mean_sd(_by_label(prior_shares(profile, "length"), label), mids)
        if got and base:
            out[label] = {
                "mean": max(8.0, default["mean"] * got[0] / base[0]),
                "sd": max(1.0, default["sd"] * got[1] / max(base[1], 1.0)),
            }
    return out


def _slip_rate(profile: dict, knob: float) -> float:
    mids = _midpoints(profile["histograms"]["slips"]["categories"])
    mine = math.fsum(p * mids[c] for c, p in shares(profile, "slips").items())
    theirs = math.fsum(p * mids[c] for c, p in prior_shares(profile, "slips").items())
    return min(knob * mine / theirs, 0.3) if theirs > 0 else min(mine, 0.3)


def _left_out(dist: dict[str, float], label: str, variable: str) -> float | None:
    """The share of a label's tickets that leave `variable` out, or None (no mass)."""
    yes, no = (dist.get(f"{label}|{variable}|{s}", 0.0) for s in ("yes", "no"))
    return no / (yes + no) if yes + no > 0 else None


def _omission(profile: dict, rates: dict[str, dict[str, float]]) -> dict:
    """Each taxonomy rate (`rates`: label -> {variable: rate}) scaled by the profile's
    left-out share / the default tickets' (templates that do not write a variable leave
    it out too, so the measured share is above the rate), at most MAX_OMISSION."""
    mine, theirs = shares(profile, "written"), prior_shares(profile, "written")
    out: dict = {}
    for label, variables in rates.items():
        for variable, rate in variables.items():
            share = _left_out(mine, label, variable)
            if share is not None:
                prior = _left_out(theirs, label, variable) or 0.0
                out.setdefault(label, {})[variable] = min(_scaled(rate, share, prior), MAX_OMISSION)
    return out


def settings(
    profile: dict, traits: dict, labels: list[str], omission_rates: dict | None = None
) -> ProfileSettings:
    """generate's settings from a checked profile; `traits` is the config's `traits:`,
    `omission_rates` the taxonomy's (label -> {variable: rate})."""
    from synth.kinds.tickets.traits import Traits

    base = {**Traits().to_dict(), **traits}
    new = dict(base)
    new["greeting"] = _scaled(
        base["greeting"],
        shares(profile, "greeting")["yes"],
        prior_shares(profile, "greeting")["yes"],
    )
    closed = 1 - shares(profile, "closing")["none"]
    new["sign_off"] = _scaled(
        base["sign_off"], closed, 1 - prior_shares(profile, "closing")["none"]
    )
    for name in ("lower_case", "no_final_punctuation"):
        new[name] = _added(shares(profile, name)["yes"], prior_shares(profile, name)["yes"])
    register = shares(profile, "register")
    new["register"] = {r: register[r] for r in ("formal", "informal")}
    new["slip_rate"] = _slip_rate(profile, base["slip_rate"] or 0.02)
    forms = {}
    for name in profile["histograms"]:
        if name.startswith("form_"):
            used = {f: p for f, p in shares(profile, name).items() if f != "none" and p > 0}
            if math.fsum(used.values()) > 0:
                forms[name.removeprefix("form_")] = used
    label_mix = shares(profile, "label") or None
    omission = _omission(profile, omission_rates or {})
    if omission:
        new["omission"] = True
    return ProfileSettings(
        traits=new,
        lengths=_lengths(profile, base, labels),
        form_weights=forms,
        label_weights=label_mix,
        template_weights=(profile.get("evolution") or {}).get("template_weights", {}),
        omission=omission,
        about={
            "epsilon": profile["epsilon"],
            "private": profile["private"],
            "tickets": profile["tickets"],
            "ledger": profile["ledger"],
        }
        | (
            {
                "evolution": {
                    k: v for k, v in profile["evolution"].items() if k != "template_weights"
                }
            }
            if profile.get("evolution")
            else {}
        ),
    )
