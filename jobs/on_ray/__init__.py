"""Everything that touches Ray: the session, the slot-filling actor pool, Ray Train and
Ray Data readers. No module outside this package imports ray."""
