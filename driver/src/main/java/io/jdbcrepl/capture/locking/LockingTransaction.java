package io.jdbcrepl.capture.locking;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.log.ChangeLogSchema;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import io.jdbcrepl.intercept.SqlState;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The capturing transaction of one connection on MariaDB/MySQL or H2: its id (created at its first
 * capture) and, before it commits, its stamp in {@code repl_tx} (SPEC 4.1).
 *
 * <p>The stamp reads the current epoch of {@code repl_epoch} with a lock held until commit (MariaDB:
 * shared, H2: exclusive, as H2 has no shared row locks). A reader closes an epoch with
 * {@code UPDATE repl_epoch SET epoch = epoch + 1}, which waits for those commits: once it returns,
 * every transaction stamped with an older epoch has committed, so a reader that reads closed epochs
 * in (epoch, last_position) order never skips one.
 */
public final class LockingTransaction {

    /** Unique per JVM; with the counter, a tx id unique across the JVMs writing one change log. */
    private static final String JVM_PREFIX = HexFormat.of().formatHex(new SecureRandom().generateSeed(8));
    private static final AtomicLong COUNTER = new AtomicLong();

    private final Dialect dialect;
    private final ChangeLogSchema log;
    /** The driver's tables and the log insert's head, quoted once: every commit's block names them. */
    private final String logTable;
    private final String txTable;
    private final String epochTable;
    private final String logInsert;
    private String txId;
    private String poisoned;
    /** repl.log.key's signer, or null: LCRs are not signed. */
    private final io.jdbcrepl.config.LogSignature signature;

    public LockingTransaction(Dialect dialect, ChangeLogSchema log, io.jdbcrepl.config.LogSignature signature) {
        this.dialect = dialect;
        this.signature = signature;
        this.log = log;
        this.logTable = log.table("repl_log");
        this.txTable = log.table("repl_tx");
        this.epochTable = log.table("repl_epoch");
        this.logInsert = LogInsert.sql(logTable, 0);
    }

    /** A transaction whose id is given: the LCR of a DDL found half-logged keeps the id it was recorded with. */
    public static LockingTransaction withId(Dialect dialect, ChangeLogSchema log,
            io.jdbcrepl.config.LogSignature signature, String txId) {
        LockingTransaction tx = new LockingTransaction(dialect, log, signature);
        tx.txId = txId;
        return tx;
    }

    /** The id of the current transaction, created at its first capture. */
    public String txId() {
        if (txId == null) txId = JVM_PREFIX + "-" + COUNTER.incrementAndGet();
        return txId;
    }

    /**
     * A capture failed after it had changed rows without their LCRs being written, and no savepoint
     * could undo that: the transaction must not commit.
     */
    void poison(String reason) {
        if (poisoned == null) poisoned = reason;
    }

    /** Stamps the transaction, when it captured anything; refuses to commit a poisoned one. */
    public void beforeCommit(Connection connection) throws SQLException {
        if (txId == null) return;
        if (poisoned != null) {
            throw SqlState.TRANSACTION_ROLLBACK.exception(
                    "This transaction cannot commit: a captured statement failed half-way (" + poisoned
                    + "); roll it back");
        }
        sign(connection);
        stamp(connection);
    }

    /**
     * repl.log.key (SPEC 8.7): signs the transaction's LCRs, read back as stored, with the positions
     * the database gave them (AUTO_INCREMENT, identity), which only exist once they are inserted. In
     * Java, so that the key never travels to the server, and on the exact text the verifier reads.
     */
    private void sign(Connection connection) throws SQLException {
        if (signature == null || txId == null) return;
        List<long[]> positions = new ArrayList<>();
        List<byte[]> signatures = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT " + col("position") + ", tx_id, source_node,"
                + " command_type, schema_name, table_name, old_values, new_values, column_types, change_vector FROM "
                + logTable + " WHERE tx_id = ? AND signature IS NULL")) {
            ps.setString(1, txId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    positions.add(new long[] {rs.getLong(1)});
                    signatures.add(signature.sign(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(9), rs.getString(10), rs.getString(7),
                            rs.getString(8)));
                }
            }
        }
        if (positions.isEmpty()) return;
        try (PreparedStatement ps = connection.prepareStatement("UPDATE " + logTable + " SET signature = ? WHERE "
                + col("position") + " = ?")) {
            for (int i = 0; i < positions.size(); i++) {
                ps.setBytes(1, signatures.get(i));
                ps.setLong(2, positions.get(i)[0]);
                if (positions.size() == 1) ps.executeUpdate();
                else ps.addBatch();
            }
            if (positions.size() > 1) ps.executeBatch();
        }
    }

    /** Whether the transaction has captured something not yet committed. */
    public boolean active() {
        return txId != null;
    }

    /** After commit or rollback. */
    public void forget() {
        txId = null;
        poisoned = null;
    }

    /**
     * MariaDB/MySQL, a statement run as a transaction of its own: its last LCRs, the stamp and COMMIT
     * as one compound statement (one round trip). Any failure in it rolls the transaction back
     * before the error reaches the driver, so it never commits changes without their LCRs.
     */
    void commitOwn(Connection connection, ChangeLogWriter pending) throws SQLException {
        if (poisoned != null) beforeCommit(connection); // throws
        if (signature != null) { // the last LCRs first: they are signed with their positions
            pending.flush();
            sign(connection);
        }
        StringBuilder sql = new StringBuilder(1024).append(BLOCK_START)
                .append("DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n");
        int mark = sql.length();
        sql.append(logInsert);
        if (pending.appendPendingRows(sql) == 0) sql.setLength(mark);
        else sql.append(";\n");
        execute(connection, appendStamp(sql).append("COMMIT;\nEND").toString());
    }

    private static final String BLOCK_START = "BEGIN NOT ATOMIC\nDECLARE repl_last BIGINT DEFAULT 0;\n";

    /**
     * MariaDB: the stamp, in a compound statement. The last position is read by a plain (consistent)
     * read, which sees the transaction's own rows and locks nothing: an INSERT … SELECT over repl_log
     * would take next-key locks on the tx_id index, where the next transaction of this JVM inserts
     * its LCRs (the ids are sequential), and serialise concurrent commits behind each other.
     */
    private StringBuilder appendStamp(StringBuilder sql) {
        String tx = ChangeLogWriter.literal(txId);
        return sql.append("SELECT COALESCE(MAX(position), 0) INTO repl_last FROM ").append(logTable)
                .append(" WHERE tx_id = ").append(tx)
                .append(";\nINSERT INTO ").append(txTable).append(" (tx_id, epoch, last_position) SELECT ").append(tx)
                .append(", epoch, repl_last FROM ").append(epochTable).append(" WHERE id = 1 LOCK IN SHARE MODE;\n")
                .append("IF ROW_COUNT() <> 1 THEN SIGNAL SQLSTATE '55000' SET MESSAGE_TEXT = 'repl_epoch has no row with id 1';")
                .append(" END IF;\n");
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    private void stamp(Connection connection) throws SQLException {
        String lastPosition = "COALESCE((SELECT MAX(" + col("position") + ") FROM " + log.table("repl_log") + " WHERE "
                + col("tx_id") + " = ?), 0)";
        String insert = "INSERT INTO " + log.table("repl_tx") + " (" + col("tx_id") + ", " + col("epoch") + ", "
                + col("last_position") + ") ";
        if (dialect.part(LockingSql.class).capabilities().textTransactions()) {
            // where transactions are text, the stamp is a compound statement too (appendStamp)
            // LOCK IN SHARE MODE: the shared lock is taken under any isolation level and held until commit.
            execute(connection, appendStamp(new StringBuilder(BLOCK_START)).append("END").toString());
            return;
        }
        long epoch;
        try (PreparedStatement ps = connection.prepareStatement("SELECT " + col("epoch") + " FROM "
                + log.table("repl_epoch") + " WHERE " + col("id") + " = 1 FOR UPDATE");
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("repl_epoch has no row with id 1");
            epoch = rs.getLong(1);
        }
        try (PreparedStatement ps = connection.prepareStatement(insert + "VALUES (?, ?, " + lastPosition + ")")) {
            ps.setString(1, txId);
            ps.setLong(2, epoch);
            ps.setString(3, txId);
            ps.executeUpdate();
        }
    }

    private String col(String name) {
        return dialect.fold(name, false); // the driver's tables are created with unquoted names
    }
}
