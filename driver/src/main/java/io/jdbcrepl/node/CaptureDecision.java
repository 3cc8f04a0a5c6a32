package io.jdbcrepl.node;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.locking.LockingPlan;
import io.jdbcrepl.capture.pg.CapturePlan;
import io.jdbcrepl.capture.sql.Dml;

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

    /** PostgreSQL: the statement is rewritten to capture its changes as it runs. */
    record InStatement(Dml dml, TableInfo table, CapturePlan plan) implements CaptureDecision {
    }

    /** MariaDB/MySQL and H2: the statement runs captured by locking reads, RETURNING or delta tables. */
    record Locking(LockingPlan plan) implements CaptureDecision {
    }
}
