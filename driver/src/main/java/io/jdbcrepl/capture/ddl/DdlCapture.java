package io.jdbcrepl.capture.ddl;

import io.jdbcrepl.ddl.DdlSessions;
import io.jdbcrepl.ddl.TableFingerprint;
import io.jdbcrepl.log.LogTableSql;
import io.jdbcrepl.capture.locking.LockingTransaction;
import io.jdbcrepl.config.LogSignature;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.DdlImage;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.sql.SchemaChange;
import io.jdbcrepl.sql.TableRef;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * DDL on replicated tables through a node's connection (SPEC 8.3): the statement runs and a DDL LCR
 * records it, in the source's commit order with the DML around it.
 *
 * <p>PostgreSQL's DDL is transactional: the LCR is written in the statement's transaction (in
 * auto-commit mode the driver wraps the two in one). MariaDB/MySQL and H2 commit around DDL, so
 * statement and LCR cannot share a transaction: before the statement a {@code repl_ddl} row records
 * it with a fingerprint of its tables (committed); after it, the LCR is written and that row deleted
 * in one transaction. A session that dies in between leaves the row behind; the next DDL capture or
 * first connection of the node finds it, sees from the fingerprint whether the statement ran, and
 * writes its LCR or drops the row ({@link #recover}). So a DDL that ran reaches the peers once.
 */
public final class DdlCapture {

    private static final DriverLog LOG = DriverLog.of(DdlCapture.class);
    private final Node node;
    private final Dialect dialect;
    private final DdlSessions sessions;

    /**
     * Called with "before" (the intent committed, the statement not run) and "after" (run, its LCR
     * not written): a crash test halts the JVM there; nothing else sets it.
     */
    private static volatile java.util.function.Consumer<String> crashPoint = point -> { };

    public DdlCapture(Node node) {
        this.node = node;
        this.dialect = node.dialect();
        this.sessions = dialect.part(DdlSessions.class);
    }

    /**
     * A DDL statement on replicated tables: the statement, its reading, the table its LCR names,
     * every table it changes (schema, name) and the session's current schema.
     */
    public record Planned(String sql, SchemaChange change, String schema, String table, List<String[]> tables,
                          String currentSchema) {

        /** Why a peer must not run it, or null. */
        public String unsafe() {
            return change.unsafe();
        }
    }

    /**
     * What {@code sql} is for replication: null when it runs as written (not DDL on a table, or on
     * no replicated table). Refused (SQLException, 0AR01) when it names replicated and other tables.
     */
    public Planned plan(Connection raw, String sql, String currentSchema) throws SQLException {
        SchemaChange change = SchemaChange.of(sql, dialect);
        if (change == null) return null;
        List<String[]> tables = new ArrayList<>();
        List<String[]> changed = new ArrayList<>();
        boolean creates = change.command().equals("CREATE TABLE");
        for (SchemaChange.Name n : change.names()) {
            if (n.role() == SchemaChange.Role.TABLE || n.role() == SchemaChange.Role.NEW_NAME) {
                String[] t = resolve(n.ref(), currentSchema);
                // a table that is not there as a table of its schema (a temporary table the name finds
                // first, or none at all): the statement is the session's own, or the database refuses it
                if (n.role() == SchemaChange.Role.TABLE && !creates && !exists(raw, t)) return null;
                tables.add(t);
                if (n.role() == SchemaChange.Role.TABLE) changed.add(t);
            }
        }
        if (changed.isEmpty() && change.index() != null) { // DROP INDEX i: its table from the catalog
            String[] index = resolve(change.index(), currentSchema);
            String table = tableOfIndex(raw, index);
            if (table == null) return null; // the database says what is wrong with it
            changed.add(new String[] {index[0], table});
            tables.add(changed.get(0));
        }
        if (changed.isEmpty()) return null;
        List<String> replicated = new ArrayList<>();
        List<String> local = new ArrayList<>();
        for (String[] t : tables) {
            (node.isReplicated(t[0], t[1], currentSchema) ? replicated : local).add(t[0] + "." + t[1]);
        }
        if (replicated.isEmpty()) return null;
        if (!local.isEmpty()) {
            throw io.jdbcrepl.intercept.SqlState.REFUSED.exception(change.command() + " names replicated tables ("
                    + String.join(", ", replicated) + ") and tables that are not (" + String.join(", ", local)
                    + "): a peer would change only the former. Run it once per table: " + abbreviate(sql));
        }
        return new Planned(sql, change, changed.get(0)[0], changed.get(0)[1], tables, currentSchema);
    }

    private boolean exists(Connection raw, String[] table) throws SQLException {
        java.sql.DatabaseMetaData md = raw.getMetaData();
        boolean catalogs = dialect.schemasAreCatalogs();
        try (ResultSet rs = md.getTables(catalogs ? table[0] : null, catalogs ? null : table[0], table[1],
                new String[] {"TABLE", "BASE TABLE"})) {
            return rs.next();
        }
    }

    private String[] resolve(TableRef ref, String currentSchema) {
        return new String[] {ref.schema() == null ? currentSchema : ref.foldedSchema(dialect), ref.foldedName(dialect)};
    }

    private String tableOfIndex(Connection raw, String[] index) throws SQLException {
        if (sessions.tableOfIndex() == null) return null;
        try (PreparedStatement ps = raw.prepareStatement(sessions.tableOfIndex())) {
            ps.setString(1, index[0]);
            ps.setString(2, index[1]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /**
     * Runs the statement and logs it. Returns the statement's result; true in {@code inTransaction}
     * when the LCR waits for the application's commit (PostgreSQL, outside auto-commit).
     */
    public Object run(Planned p, Execution execution, Connection raw, boolean[] inTransaction) throws SQLException {
        if (!sessions.ddlCommits()) return runInTransaction(p, execution, raw, inTransaction);
        recover(raw);
        LockingTransaction tx = new LockingTransaction(dialect, node.changeLog(), node.config().logSignature());
        boolean auto = raw.getAutoCommit();
        String fingerprint = TableFingerprint.of(raw, dialect, p.tables(), p.change().truncate());
        new DdlIntents(node).save(raw, tx.txId(), currentSession(raw), p, fingerprint);
        if (!auto) raw.commit();
        crashPoint.accept("before");
        Object result;
        try {
            result = execution.proceed();
        } catch (SQLException | RuntimeException e) {
            try {
                new DdlIntents(node).delete(raw, tx.txId());
                if (!raw.getAutoCommit()) raw.commit();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed); // the row stays; the fingerprint tells the next capture it did not run
            }
            throw e;
        }
        crashPoint.accept("after");
        publish(raw, tx, p.schema(), p.table(), image(p), p);
        node.committed();
        return result;
    }

    private Object runInTransaction(Planned p, Execution execution, Connection raw, boolean[] inTransaction)
            throws SQLException {
        boolean auto = raw.getAutoCommit();
        if (auto) raw.setAutoCommit(false);
        try {
            Object result = execution.proceed();
            write(raw, null, p.schema(), p.table(), image(p));
            writeRows(raw, null, p);
            if (auto) raw.commit();
            inTransaction[0] = !auto;
            if (auto) node.committed();
            return result;
        } catch (SQLException | RuntimeException e) {
            if (auto) {
                try {
                    raw.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        } finally {
            if (auto) raw.setAutoCommit(true);
        }
    }

    private RowImage image(Planned p) {
        return DdlImage.of(statementForPeers(p), p.change().command(), p.currentSchema(), dialect.name());
    }

    /** The statement the peers run: CREATE TABLE … AS query gives them no rows (they come as INSERT LCRs). */
    static String statementForPeers(Planned p) {
        int at = p.change().queryStart();
        if (at < 0) return p.sql();
        String query = p.sql().substring(at).strip();
        if (query.endsWith(";")) query = query.substring(0, query.length() - 1);
        // LIMIT 0 (every database here reads it) keeps the query's unnamed columns, which a derived table would not
        boolean limited = java.util.regex.Pattern.compile("(?i)\\b(LIMIT|FETCH|OFFSET)\\b").matcher(query).find();
        return p.sql().substring(0, at) + (limited ? "SELECT * FROM (" + query + ") q WHERE 1 = 0" : query + " LIMIT 0");
    }

    /**
     * In its own transaction: deletes the intent of {@code tx} (when there is one, only if it was
     * still there: two recoveries never both publish), writes the LCR and commits.
     */
    private void publish(Connection raw, LockingTransaction tx, String schema, String table, RowImage image,
            Planned rowsOf) throws SQLException {
        boolean auto = raw.getAutoCommit();
        if (auto) raw.setAutoCommit(false);
        try {
            if (new DdlIntents(node).delete(raw, tx.txId()) == 1) {
                write(raw, tx, schema, table, image);
                if (rowsOf != null) writeRows(raw, tx, rowsOf);
                tx.beforeCommit(raw);
            }
            raw.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                raw.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            tx.forget();
            if (auto) raw.setAutoCommit(true);
        }
    }

    /** Inserts the DDL LCR; {@code tx} null on PostgreSQL, where the transaction is the id. */
    private void write(Connection raw, LockingTransaction tx, String schema, String table, RowImage image)
            throws SQLException {
        write(raw, tx, CommandType.DDL, schema, table, image, null);
    }

    /**
     * CREATE TABLE … AS query: the rows the query gave, as INSERT LCRs after the table's DDL LCR
     * (whose query the peers run for no rows), so that every node has the source's rows.
     */
    private void writeRows(Connection raw, LockingTransaction tx, Planned p) throws SQLException {
        if (p.change().queryStart() < 0) return;
        try (java.sql.Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT * FROM " + dialect.quote(p.schema()) + "." + dialect.quote(p.table()))) {
            java.sql.ResultSetMetaData md = rs.getMetaData();
            List<String> names = new ArrayList<>();
            for (int c = 1; c <= md.getColumnCount(); c++) names.add(md.getColumnName(c));
            String vector = Json.write(names);
            while (rs.next()) {
                RowImage row = new RowImage();
                for (int c = 1; c <= md.getColumnCount(); c++) {
                    io.jdbcrepl.lcr.ValueType type = io.jdbcrepl.lcr.ValueType.of(md.getColumnType(c), md.getColumnTypeName(c));
                    row.put(names.get(c - 1), type, type.read(rs, c));
                }
                write(raw, tx, CommandType.INSERT, p.schema(), p.table(), row, vector);
            }
        }
    }

    private void write(Connection raw, LockingTransaction tx, CommandType command, String schema, String table,
            RowImage image, String changeVector) throws SQLException {
        String json = dialect.part(LogTableSql.class).jsonParameter();
        String log = node.changeLog().table("repl_log");
        String values = image.valuesJson();
        String types = image.typesJson();
        LogSignature signature = node.config().logSignature();
        if (tx == null && signature != null) { // PostgreSQL signs with the position and id it draws here
            long position;
            String txId;
            try (PreparedStatement ps = raw.prepareStatement("SELECT nextval(pg_get_serial_sequence(?, 'position')),"
                    + " CAST(pg_current_xact_id() AS text)")) {
                ps.setString(1, log);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    position = rs.getLong(1);
                    txId = rs.getString(2);
                }
            }
            try (PreparedStatement ps = raw.prepareStatement("INSERT INTO " + log + " (position, source_node, command_type,"
                    + " schema_name, table_name, new_values, column_types, change_vector, signature) VALUES (?, ?, ?, ?, ?, "
                    + json + ", " + json + ", " + json + ", ?)")) {
                ps.setLong(1, position);
                ps.setString(2, node.name());
                ps.setString(3, command.name());
                ps.setString(4, schema);
                ps.setString(5, table);
                ps.setString(6, values);
                ps.setString(7, types);
                ps.setString(8, changeVector);
                ps.setBytes(9, signature.sign(position, txId, node.name(), command.name(), schema, table, types,
                        changeVector, null, values));
                ps.executeUpdate();
            }
            return;
        }
        String columns = tx == null ? "" : "tx_id, ";
        try (PreparedStatement ps = raw.prepareStatement("INSERT INTO " + log + " (" + columns + "source_node,"
                + " command_type, schema_name, table_name, new_values, column_types, change_vector) VALUES ("
                + (tx == null ? "" : "?, ") + "?, ?, ?, ?, " + json + ", " + json + ", " + json + ")")) {
            int i = 1;
            if (tx != null) ps.setString(i++, tx.txId());
            ps.setString(i++, node.name());
            ps.setString(i++, command.name());
            ps.setString(i++, schema);
            ps.setString(i++, table);
            ps.setString(i++, values);
            ps.setString(i++, types);
            ps.setString(i, changeVector);
            ps.executeUpdate();
        }
    }

    private String currentSession(Connection raw) throws SQLException {
        try (PreparedStatement ps = raw.prepareStatement(sessions.currentSession()); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * DDL whose session died between the statement and its LCR: its LCR is written when its tables
     * show that it ran, else its record is dropped. Returns how many LCRs it wrote.
     */
    public int recover(Connection raw) throws SQLException {
        if (!sessions.ddlCommits()) return 0;
        int published = 0;
        DdlIntents intents = new DdlIntents(node);
        for (DdlIntents.Intent intent : intents.pending(raw)) {
            if (alive(raw, intent.sessionId())) continue;
            boolean truncate = "TRUNCATE TABLE".equals(intent.command());
            boolean ran = !TableFingerprint.of(raw, dialect, intent.tables(), truncate).equals(intent.fingerprint());
            if (ran) {
                publishRecovered(raw, intent);
                published++;
                LOG.warn("jdbc:repl: " + node.name() + ": the session that ran " + intent.command() + " on "
                        + intent.schema() + "." + intent.table() + " ended before it logged it; logged now");
            } else {
                boolean auto = raw.getAutoCommit();
                intents.delete(raw, intent.txId());
                if (!auto) raw.commit();
            }
        }
        if (published > 0) node.committed();
        return published;
    }

    private void publishRecovered(Connection raw, DdlIntents.Intent intent) throws SQLException {
        LockingTransaction tx = LockingTransaction.withId(dialect, node.changeLog(), node.config().logSignature(),
                intent.txId());
        publish(raw, tx, intent.schema(), intent.table(), RowImage.fromJson(intent.newValues(),
                RowImage.typesFromJson(DdlImage.of("", "", "", "").typesJson())), null);
    }

    private boolean alive(Connection raw, String session) throws SQLException {
        if (session == null) return false;
        try (PreparedStatement ps = raw.prepareStatement(sessions.sessionAlive())) {
            ps.setString(1, session);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Once per node in a JVM, at its first connection: DDL left half-logged by a process that died. */
    public static void atFirstConnect(Node node, Connection raw) {
        FirstConnect once = node.attachment(FirstConnect.class, FirstConnect::new);
        synchronized (once) {
            if (once.done) return;
            once.done = true;
            if (!node.config().replicatesDdl()) return;
            try {
                new DdlCapture(node).recover(raw);
            } catch (SQLException e) {
                LOG.warn("jdbc:repl: " + node.name() + " could not check " + node.changeLog().table("repl_ddl")
                        + " for DDL left unlogged: " + e.getMessage());
            }
        }
    }

    private static final class FirstConnect {
        boolean done;
    }

    static String abbreviate(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 197) + "...";
    }

    /** For the intents' JSON: a table list. */
    static String tablesJson(List<String[]> tables) {
        List<Object> out = new ArrayList<>();
        for (String[] t : tables) out.add(List.of(t[0], t[1]));
        return Json.write(out);
    }
}
