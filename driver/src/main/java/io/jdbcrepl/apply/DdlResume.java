package io.jdbcrepl.apply;

import io.jdbcrepl.ddl.TableFingerprint;
import io.jdbcrepl.lcr.DdlImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.dialect.Dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Where DDL commits around itself (MariaDB/MySQL, H2), a peer's transaction with DDL LCRs is
 * applied in parts: before each DDL the rows before it are committed with an 'apply' row of
 * {@code repl_ddl} saying how far the transaction got and a fingerprint of the DDL's table. Applied
 * again (after a crash, or from the error queue), the transaction skips what was committed and,
 * for the DDL it stopped at, sees from the fingerprint whether it ran. The row goes with the
 * transaction's last part.
 */
final class DdlResume {

    private final Dialect dialect;
    private final String table;
    private final String source;
    private final String txId;
    private final String sourceHomeSchema;
    private final String localHomeSchema;
    private long number;
    private String fingerprint;

    private DdlResume(Dialect dialect, ChangeLogSchema log, String source, String txId, String sourceHomeSchema,
            String localHomeSchema) {
        this.dialect = dialect;
        this.table = log.table("repl_ddl");
        this.source = source;
        this.txId = txId;
        this.sourceHomeSchema = sourceHomeSchema;
        this.localHomeSchema = localHomeSchema;
    }

    /** The transaction's resume point, read from {@code repl_ddl}: number 0 when it starts afresh. */
    static DdlResume load(Connection local, Dialect dialect, ChangeLogSchema log, String source, String txId,
            String sourceHomeSchema, String localHomeSchema) throws SQLException {
        DdlResume resume = new DdlResume(dialect, log, source, txId, sourceHomeSchema, localHomeSchema);
        try (PreparedStatement ps = local.prepareStatement("SELECT lcr_number, fingerprint FROM " + resume.table
                + " WHERE kind = 'apply' AND source_node = ? AND tx_id = ?")) {
            ps.setString(1, source);
            ps.setString(2, txId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    resume.number = rs.getLong(1);
                    resume.fingerprint = rs.getString(2);
                }
            }
        }
        return resume;
    }

    /** Applies LCR {@code n}: skipped when an earlier attempt committed it; a DDL commits what came before it. */
    void apply(Connection local, RowApplier rows, RowLcr lcr, long n) throws SQLException, ApplyFailure {
        if (n < number) return;
        if (lcr.commandType() == io.jdbcrepl.lcr.CommandType.DDL) {
            if (ran(local, lcr, n)) return; // it ran before the last attempt stopped
            rows.flush();
            before(local, lcr, n);
            local.commit();
        }
        rows.apply(lcr, n);
    }

    /** Whether DDL LCR {@code n} is the one a previous attempt stopped at, and it ran (its table changed since). */
    private boolean ran(Connection local, RowLcr lcr, long n) throws SQLException {
        return n == number && fingerprint != null && !fingerprint.isEmpty() && !fingerprint.equals(fingerprint(local, lcr));
    }

    /** In the local transaction, before DDL LCR {@code n} runs: the rows before it are applied. */
    private void before(Connection local, RowLcr lcr, long n) throws SQLException {
        String print = fingerprint(local, lcr);
        delete(local);
        try (PreparedStatement ps = local.prepareStatement("INSERT INTO " + table + " (kind, source_node, tx_id,"
                + " lcr_number, schema_name, table_name, fingerprint) VALUES ('apply', ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, source);
            ps.setString(2, txId);
            ps.setLong(3, n);
            ps.setString(4, lcr.objectOwner());
            ps.setString(5, lcr.objectName());
            ps.setString(6, print);
            ps.executeUpdate();
        }
        number = n;
        fingerprint = print;
    }

    /**
     * The transaction goes to the error queue, failing at LCR {@code failed}: what a retry must skip
     * is known now, whatever the user changes before it (a DDL that failed did not run; one before
     * the failure did).
     */
    void queued(Connection local, long failed) throws SQLException {
        if (number == 0) return; // nothing of it committed
        try (PreparedStatement ps = local.prepareStatement("UPDATE " + table + " SET lcr_number = ?, fingerprint = ''"
                + " WHERE kind = 'apply' AND source_node = ? AND tx_id = ?")) {
            ps.setLong(1, failed > number ? number + 1 : number);
            ps.setString(2, source);
            ps.setString(3, txId);
            ps.executeUpdate();
        }
    }

    /** With the transaction's last part: nothing to resume. */
    void delete(Connection local) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + table
                + " WHERE kind = 'apply' AND source_node = ? AND tx_id = ?")) {
            ps.setString(1, source);
            ps.setString(2, txId);
            ps.executeUpdate();
        }
    }

    private String fingerprint(Connection local, RowLcr lcr) throws SQLException {
        String schema = TableMap.mapSchema(lcr.objectOwner(), sourceHomeSchema, localHomeSchema);
        String name = lcr.objectName();
        // a name from a database that folds the other way (H2 ⇄ PostgreSQL) is looked up folded here
        if (dialect.foldsToUpper() != name.equals(name.toUpperCase(java.util.Locale.ROOT))) name = dialect.fold(name);
        return TableFingerprint.of(local, dialect, List.<String[]>of(new String[] {schema, name}),
                "TRUNCATE TABLE".equals(DdlImage.get(lcr, DdlImage.COMMAND)));
    }
}
