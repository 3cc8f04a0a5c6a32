package io.jdbcrepl.capture.session;

import io.jdbcrepl.capture.CaptureMethod;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.WithDml;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Capture that rewrites a statement into one that changes the rows and logs them in the same
 * snapshot (a database whose {@link CaptureMethod#inStatement()} says so): a part. What varies: how
 * a connection is set up for it, the rewrite, and how the rewritten statement runs.
 */
public interface InStatementCapture {

    /** Capture on one connection, set up on its {@code raw} connection. */
    Session open(Node node, Connection raw) throws SQLException;

    /** The rewriting of one connection. */
    interface Session {

        /** The rewrite of {@code dml} on {@code table}; a CaptureException when it cannot be captured (an IllegalArgumentException when it names a column the table lacks). */
        Plan plan(Dml dml, TableInfo table, CaptureSettings settings) throws SQLException;

        /**
         * The rewrite of a statement with data-modifying WITH queries ({@link WithDml}); {@code tables}
         * and {@code settings} per {@link WithDml#changes()}, null where a change is not on a replicated
         * table. A CaptureException when it cannot be captured: by default, the statement's refusal.
         */
        default Plan planWith(WithDml with, List<TableInfo> tables, List<CaptureSettings> settings) throws SQLException {
            throw new io.jdbcrepl.capture.CaptureException(with.refusal().reason());
        }

        /** Runs {@code plan} for one statement of {@code capture}'s connection. */
        StatementInterceptor interceptor(Plan plan, CaptureSession capture);
    }

    /** A rewritten statement: immutable, cached per SQL text and shared by the node's connections. */
    interface Plan {

        /** The SQL run in place of the application's; its parameters are the application's, in order. */
        String sql();
    }
}
