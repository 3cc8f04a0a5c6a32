package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.session.CaptureSession;
import io.jdbcrepl.capture.session.InStatementCapture;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.WithDml;
import io.jdbcrepl.config.LogSignature;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;

/** PostgreSQL: each captured statement becomes one data-modifying CTE ({@link PostgresCapture}), run by {@link PostgresStatementCapture}. */
final class PostgresInStatementCapture implements InStatementCapture {

    @Override
    public Session open(Node node, Connection raw) throws SQLException {
        String logTable = node.changeLog().table("repl_log");
        LogSignature signature = node.config().logSignature();
        PostgresCapture capture = new PostgresCapture(logTable, node.name(),
                signature == null ? null : useLogKey(raw, logTable, signature));
        return new PostgresSession(capture, node);
    }

    /** A statement's rewrite, with what its generated keys' rewrite needs (no dml: a WITH statement's, which has none). */
    private record PostgresPlan(CapturePlan plan, Dml dml, TableInfo table) implements Plan {

        @Override
        public String sql() {
            return plan.sql();
        }
    }

    private record PostgresSession(PostgresCapture capture, Node node) implements Session {

        @Override
        public Plan plan(Dml dml, TableInfo table, CaptureSettings settings) throws SQLException {
            return new PostgresPlan(capture.plan(dml, table, settings), dml, table);
        }

        /** The first replicated table stands for the statement where a message names one. */
        @Override
        public Plan planWith(WithDml with, List<TableInfo> tables, List<CaptureSettings> settings) throws SQLException {
            TableInfo first = tables.stream().filter(java.util.Objects::nonNull).findFirst().orElseThrow();
            return new PostgresPlan(capture.planWith(with, tables, settings), null, first);
        }

        @Override
        public StatementInterceptor interceptor(Plan plan, CaptureSession session) {
            PostgresPlan p = (PostgresPlan) plan;
            return new PostgresStatementCapture(p.plan(), p.dml(), p.table(), capture, node, session);
        }
    }

    /**
     * With repl.log.key: the key's HMAC pads become settings of this session, bound as parameters
     * (never in SQL text, see {@link PostgresCapture#INNER_PAD_SETTING}), for the capturing
     * statements to sign with; committed at once, so that no later rollback takes them back. Returns
     * the sequence of repl_log's position column, which signed statements draw from explicitly.
     */
    private static String useLogKey(Connection raw, String logTable, LogSignature signature) throws SQLException {
        HexFormat hex = HexFormat.of();
        String sequence;
        try (PreparedStatement ps = raw.prepareStatement("SELECT pg_get_serial_sequence(?, 'position'),"
                + " set_config(?, ?, false), set_config(?, ?, false)")) {
            ps.setString(1, logTable);
            ps.setString(2, PostgresCapture.INNER_PAD_SETTING);
            ps.setString(3, hex.formatHex(signature.innerPad()));
            ps.setString(4, PostgresCapture.OUTER_PAD_SETTING);
            ps.setString(5, hex.formatHex(signature.outerPad()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                sequence = rs.getString(1);
            }
        }
        if (!raw.getAutoCommit()) raw.commit();
        if (sequence == null) {
            throw new SQLException("repl.log.key: " + logTable + ".position has no sequence; the driver's change log"
                    + " was not created by the driver", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        return sequence;
    }
}
