"""Rebuild the compact public source tables in synth/data/sources/ from ../shared/data.

Run once by a maintainer when a source is updated; the product itself only reads the
derived files, so a fresh clone never needs ../shared. Each output keeps only the columns
the samplers use; attribution and licences are in synth/data/sources/README.md.

    python scripts/derive_sources.py ../shared/data
"""

import csv
import shutil
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "synth" / "data" / "sources"


def occupations(src: Path) -> None:
    """BLS OEWS detailed occupations with employment and mean annual wage."""
    rows = []
    with open(src / "bls_oews" / "national_M2023_dl.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["O_GROUP"] != "detailed":
                continue
            emp, wage = r["TOT_EMP"].replace(",", ""), r["A_MEAN"].replace(",", "")
            if not emp.isdigit() or not wage.replace(".", "").isdigit():
                continue  # '*', '#', '**' mark suppressed values
            rows.append((r["OCC_TITLE"], int(emp), float(wage)))
    with open(OUT / "occupations.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["title", "employment", "mean_annual_wage_usd"])
        w.writerows(rows)


def pay_gaps(src: Path) -> None:
    """UK employer mean and median hourly pay gaps (percent, women relative to men)."""
    path = src / "uk_gender_pay_gap" / "uk_gender_pay_gap_2022_2023.csv"
    with (
        open(path, newline="", encoding="utf-8") as f,
        open(OUT / "uk_pay_gaps.csv", "w", newline="") as g,
    ):
        w = csv.writer(g)
        w.writerow(["mean_hourly_gap_pct", "median_hourly_gap_pct", "employer_size"])
        for r in csv.DictReader(f):
            w.writerow(
                [r["DiffMeanHourlyPercent"], r["DiffMedianHourlyPercent"], r["EmployerSize"]]
            )


def flights(src: Path) -> None:
    """Airports with IATA codes and the distinct airport pairs that have a route."""
    of = src / "openflights"
    countries = {}
    with open(of / "countries.dat", newline="", encoding="utf-8") as f:
        for name, iso, _ in csv.reader(f):
            countries[name] = iso
    airports = {}
    with open(of / "airports.dat", newline="", encoding="utf-8") as f:
        for r in csv.reader(f):
            iata, country = r[4], countries.get(r[3], "")
            if len(iata) == 3 and country and r[12] == "airport":
                airports[iata] = (r[1], r[2], country)
    pairs = set()
    with open(of / "routes.dat", newline="", encoding="utf-8") as f:
        for r in csv.reader(f):
            if r[2] in airports and r[4] in airports and r[2] != r[4]:
                pairs.add((r[2], r[4]))
    used = {a for p in pairs for a in p}
    with open(OUT / "airports.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["iata", "name", "city", "country_code"])
        w.writerows((k, *airports[k]) for k in sorted(used))
    with open(OUT / "routes.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "destination"])
        w.writerows(sorted(pairs))
    shutil.copy(of / "LICENSE", OUT / "OPENFLIGHTS_LICENSE.txt")


def copies(src: Path) -> None:
    """Small tables used as they are."""
    shutil.copy(src / "absenteeism_at_work" / "Absenteeism_at_work.csv", OUT / "absenteeism.csv")
    shutil.copy(src / "absenteeism_at_work" / "reason_codes.csv", OUT / "reason_codes.csv")
    with (
        open(src / "life_events" / "holmes_rahe_srrs_43_events.csv", newline="") as f,
        open(OUT / "life_events.csv", "w", newline="") as g,
    ):
        w = csv.writer(g)
        w.writerow(["event", "life_change_units"])
        for r in csv.DictReader(f):
            w.writerow([r["event"], r["life_change_units"]])


if __name__ == "__main__":
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data")
    OUT.mkdir(parents=True, exist_ok=True)
    for step in (occupations, pay_gaps, flights, copies):
        step(source)
    print(f"wrote {sorted(p.name for p in OUT.iterdir())}")
