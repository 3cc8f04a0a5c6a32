package io.jdbcrepl.capture.locking;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * What a failed capture statement leaves behind in the application's transaction: its changes
 * must not stay without their LCRs, so they are rolled back to a savepoint taken before them, or,
 * where none was taken, the transaction is poisoned (it can no longer commit). In a transaction of
 * its own the caller rolls everything back, and nothing is needed here.
 */
final class StatementUndo {

    private final Connection connection;
    private final LockingTransaction transaction;
    private final boolean ownTransaction;
    private Savepoint savepoint;
    private boolean changed;

    StatementUndo(Connection connection, LockingTransaction transaction, boolean ownTransaction) {
        this.connection = connection;
        this.transaction = transaction;
        this.ownTransaction = ownTransaction;
    }

    /** Rows were changed: a failure from now on must not leave them without their LCRs. */
    void changed() {
        changed = true;
    }

    boolean hasChanged() {
        return changed;
    }

    /** In the application's transaction, a savepoint that a failure rolls back to (the first one taken stays). */
    void savepoint() throws SQLException {
        if (!ownTransaction && savepoint == null) savepoint = connection.setSavepoint();
    }

    /** Undoes what the failed statement changed, or poisons the transaction; {@code e} is then thrown. */
    void failed(Exception e) {
        if (savepoint != null) {
            try {
                connection.rollback(savepoint);
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
                transaction.poison(e.getMessage());
            }
        } else if (changed && !ownTransaction) {
            transaction.poison(e.getMessage());
        }
    }
}
