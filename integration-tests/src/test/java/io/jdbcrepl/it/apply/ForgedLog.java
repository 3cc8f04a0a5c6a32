package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.TestDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A node's repl_log written by hand, as any user of that node could (capture writes it through the
 * application's connection): what HostilePeerIT and SignedLogIT forge.
 */
final class ForgedLog {

    private final TestDatabase db;
    private final String columns;

    /** @param columns the repl_log columns a forgery copies, ", "-separated (tx_id and position are the forger's) */
    ForgedLog(TestDatabase db, String columns) {
        this.db = db;
        this.columns = columns;
    }

    /** The transactions of the log, in position order. */
    List<String> txIds() throws SQLException {
        String txId = db.vendor().isMariaDbServer() ? "tx_id" : "tx_id::text";
        List<String> out = new ArrayList<>();
        try (Connection c = db.openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT " + txId + " FROM " + db.driverTable("repl_log")
                        + " GROUP BY tx_id ORDER BY MIN(position)")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    /**
     * Copies a captured transaction's LCRs into a transaction of the forger's own with {@code column}
     * set to {@code expression}, and removes the original (MariaDB: with repl_tx rows for commit
     * order, as capture writes them).
     */
    void forge(String template, String column, String expression) throws SQLException {
        String log = db.driverTable("repl_log");
        String txs = db.driverTable("repl_tx");
        String select = "SELECT " + Arrays.stream(columns.split(", ")).map(c -> c.equals(column) ? expression : c)
                .collect(Collectors.joining(", ")) + " FROM " + log + " WHERE tx_id = ";
        try (Connection c = db.openRaw()) {
            c.setAutoCommit(false);
            if (db.vendor().isMariaDbServer()) {
                String forged = "forged-" + template;
                update(c, "INSERT INTO " + log + " (tx_id, " + columns + ") " + select.replace("SELECT ", "SELECT ?, ")
                        + "? ORDER BY position", forged, template);
                update(c, "INSERT INTO " + txs + " (tx_id, epoch, last_position) SELECT ?, epoch,"
                        + " (SELECT MAX(position) FROM " + log + " WHERE tx_id = ?) FROM "
                        + db.driverTable("repl_epoch") + " WHERE id = 1", forged, forged);
                update(c, "DELETE FROM " + txs + " WHERE tx_id = ?", template);
                update(c, "DELETE FROM " + log + " WHERE tx_id = ?", template);
            } else {
                update(c, "INSERT INTO " + log + " (" + columns + ") " + select + "?::xid8 ORDER BY position", template);
                update(c, "DELETE FROM " + log + " WHERE tx_id = ?::xid8", template);
            }
            c.commit();
        }
    }

    private static void update(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setString(i + 1, params[i]);
            assertThat(ps.executeUpdate()).as(sql).isPositive();
        }
    }
}
