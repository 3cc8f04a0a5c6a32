package io.jdbcrepl.node;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.pg.CapturePlan;
import io.jdbcrepl.capture.pg.PostgresCapture;
import io.jdbcrepl.capture.sql.Analysis;
import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.capture.sql.Dml;
import io.jdbcrepl.capture.sql.NotDml;
import io.jdbcrepl.capture.sql.Opaque;
import io.jdbcrepl.capture.sql.SqlClassifier;
import io.jdbcrepl.capture.sql.TableRef;
import io.jdbcrepl.config.UnsupportedMode;
import io.jdbcrepl.intercept.ConnectionInterceptor;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;
import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Capture for one connection of a node: decides, once per SQL text, whether a statement changes a
 * replicated table and, if so, how it is captured.
 */
public final class CaptureSession implements ConnectionInterceptor {

    private static final DriverLog LOG = DriverLog.of(CaptureSession.class);
    /** Cached decision for SQL that is left to the real driver. */
    private static final Object PASS = new Object();

    private final Node node;
    private final Connection raw;
    private final PostgresCapture postgres;
    private String currentSchema;

    public CaptureSession(Node node, Connection raw) throws SQLException {
        this.node = node;
        this.raw = raw;
        if (node.dialect() != Dialect.POSTGRESQL) {
            throw new SQLException("Capture on " + node.dialect() + " is not available in this build yet: connect"
                    + " without repl.node for a pass-through connection", "0A000");
        }
        this.postgres = new PostgresCapture(node.changeLog().table("repl_log"), node.name());
    }

    @Override
    public StatementInterceptor onStatement(String sql, StatementKind kind) throws SQLException {
        if (!SqlClassifier.mayChangeRows(sql)) return null;
        Object decision = decide(sql);
        return decision instanceof Capture capture ? new PostgresStatementCapture(capture.plan(), capture.dml(),
                capture.table(), postgres, node) : null;
    }

    @Override
    public String batchSql(String sql) throws SQLException {
        if (!SqlClassifier.mayChangeRows(sql)) return sql;
        return decide(sql) instanceof Capture capture ? capture.plan().sql() : sql;
    }

    /** {@link #PASS} or a {@link Capture}, cached per (current schema, SQL). */
    private Object decide(String sql) throws SQLException {
        String schema = currentSchema();
        String key = schema + "\u0000" + sql;
        Object cached = node.planCache().get(key);
        if (cached != null) return cached;
        Object decision = plan(sql, schema);
        node.planCache().put(key, decision);
        return decision;
    }

    private Object plan(String sql, String schema) throws SQLException {
        Analysis analysis = SqlClassifier.analyze(sql, node.dialect());
        if (analysis instanceof NotDml) return PASS;
        if (analysis instanceof Opaque opaque) return opaque(opaque, sql, schema);
        Dml dml = (Dml) analysis;
        TableRef target = dml.target();
        String targetSchema = target.schema() == null ? schema : target.foldedSchema(node.dialect());
        String table = target.foldedName(node.dialect());
        if (!node.config().isReplicated(targetSchema, table, schema, node.foldsToUpper())) return PASS;
        Optional<TableInfo> info = node.table(raw, targetSchema, table);
        if (info.isEmpty()) return PASS; // no such table: the database reports it as usual
        try {
            return new Capture(dml, info.get(), postgres.plan(dml, info.get(), node.settings(info.get())));
        } catch (CaptureException e) {
            return unsupported(e.getMessage(), sql);
        }
    }

    private Object opaque(Opaque opaque, String sql, String schema) throws SQLException {
        if (opaque.tablesNamed().isEmpty()) {
            // CALL, DO: what a routine changes is out of a driver's sight (README, limitations).
            LOG.warn("Not captured (" + node.name() + "): " + opaque.reason() + " — statement: " + abbreviate(sql));
            return PASS;
        }
        for (TableRef t : opaque.tablesNamed()) {
            String s = t.schema() == null ? schema : t.foldedSchema(node.dialect());
            if (node.config().isReplicated(s, t.foldedName(node.dialect()), schema, node.foldsToUpper())) {
                return unsupported(opaque.reason(), sql);
            }
        }
        return PASS;
    }

    private Object unsupported(String reason, String sql) throws CaptureException {
        if (node.config().unsupported() == UnsupportedMode.PASSTHROUGH) {
            LOG.warn("Not captured (repl.unsupported=passthrough, node " + node.name() + "): " + reason
                    + " — statement: " + abbreviate(sql));
            return PASS;
        }
        String message = reason.contains("repl.unsupported") ? reason
                : reason + " (set repl.unsupported=passthrough to run such statements uncaptured)";
        throw new CaptureException(message);
    }

    private String currentSchema() throws SQLException {
        if (currentSchema == null) currentSchema = TableCatalog.currentSchema(raw, node.dialect());
        return currentSchema;
    }

    private static String abbreviate(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 197) + "...";
    }

    /** A captured statement's plan, shared by every connection of the node. */
    record Capture(Dml dml, TableInfo table, CapturePlan plan) {
    }
}
