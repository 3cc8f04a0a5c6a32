/**
 * The capture of one connection ({@link io.jdbcrepl.capture.session.CaptureSession}): decides once per
 * SQL text, cached per node, whether a statement changes a replicated table and how it is captured
 * (rewritten in itself, {@link io.jdbcrepl.capture.session.InStatementCapture}; with the locking plans
 * of {@code capture.locking}; or a staged load), and keeps the captured transaction in step with
 * commits. Above {@code capture.locking}, which depends on {@code capture}: so not in {@code capture}.
 */
package io.jdbcrepl.capture.session;
