/**
 * Capture logic: what a replicated table looks like to capture ({@link io.jdbcrepl.capture.TableInfo}),
 * the per-table capture settings, which old and new values an LCR carries (SPEC 3.3), and the
 * capture plans per dialect. Pure: no database, no DriverManager.
 */
package io.jdbcrepl.capture;
