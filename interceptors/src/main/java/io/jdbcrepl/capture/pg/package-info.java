/**
 * Capture on PostgreSQL: the application's statement becomes one data-modifying CTE that locks the
 * old rows, changes them and writes their LCRs, in the same statement and so the same snapshot.
 */
package io.jdbcrepl.capture.pg;
