/**
 * Materialized view logs and views (SPEC 6), the pure part: reading the Oracle-style DDL and
 * {@code DBMS_MVIEW} calls the driver intercepts, checking a view's query for fast refresh, and
 * the SQL that refreshes it. No database here; the driver's {@code io.jdbcrepl.mview} runs it.
 */
package io.jdbcrepl.mview;
