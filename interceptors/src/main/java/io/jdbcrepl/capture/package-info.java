/**
 * Capture logic: what a replicated table looks like to capture ({@link io.jdbcrepl.capture.TableInfo}),
 * the per-table capture settings, which old and new values an LCR carries (SPEC 3.3), and the
 * capture plans per dialect. Pure: no database, no DriverManager.
 * <p>
 * The package is split across the two modules on purpose: the driver module's half holds the parts
 * capture asks a database for that need one ({@code CaptureMethod}, {@code SessionZone},
 * {@code DeltaTableRows}); its sub-package {@code capture.locking} executes the locking plans, and
 * {@code capture.session} (driver only) is the capture of one connection that uses both.
 */
package io.jdbcrepl.capture;
