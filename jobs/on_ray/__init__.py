"""Everything that touches Ray: the session, the slot-filling actor pool, Ray Train and
Ray Data readers. No module outside this package imports ray."""

import os
from pathlib import Path

# Ray Data reads its logging config when it is imported and again per dataset: set here,
# before any module of this package imports ray (see session.quiet_ray_console); a job's
# --verbose takes it away again for its datasets (session.verbose_console).
QUIET_DATA_LOGGING = str(Path(__file__).with_name("ray_data_logging.yaml"))
if os.environ.get("HRSYNTH_RAY_LOGS", "") in ("", "0"):
    os.environ.setdefault("RAY_DATA_LOGGING_CONFIG", QUIET_DATA_LOGGING)
