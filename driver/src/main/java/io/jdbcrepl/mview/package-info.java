/**
 * Materialized view logs and fast-refresh materialized views (SPEC 6): the interception of their
 * DDL and {@code DBMS_MVIEW} calls ({@link io.jdbcrepl.mview.MviewSession}), the logs' tables and
 * triggers ({@link io.jdbcrepl.mview.LogTables}), the catalog of logs and views, and the refresh.
 */
package io.jdbcrepl.mview;
