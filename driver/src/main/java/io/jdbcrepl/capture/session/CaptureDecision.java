package io.jdbcrepl.capture.session;

import io.jdbcrepl.capture.locking.LockingPlan;

/**
 * What capture does with one SQL text, decided by {@link CaptureSession} and cached per (current
 * schema, SQL) in the node's {@link PlanCache}, shared by every connection of the node.
 */
sealed interface CaptureDecision {

    /** The decisions that carry no plan. */
    enum Outcome implements CaptureDecision {
        /** Left to the real driver. */
        PASS,
        /** A statement on a replicated table that does not exist (yet): passed through, never cached. */
        NO_SUCH_TABLE,
        /** A load (COPY … FROM, LOAD DATA) into a replicated table: staged at each execution. */
        LOAD
    }

    /** The statement is rewritten to capture its changes as it runs ({@link InStatementCapture}). */
    record InStatement(InStatementCapture.Plan plan) implements CaptureDecision {
    }

    /** MariaDB/MySQL and H2: the statement runs captured by locking reads, RETURNING or delta tables. */
    record Locking(LockingPlan plan) implements CaptureDecision {
    }
}
