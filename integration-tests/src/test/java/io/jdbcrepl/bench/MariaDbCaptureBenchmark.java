package io.jdbcrepl.bench;

import io.jdbcrepl.it.support.DriverTables;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * {@link CaptureBenchmark} on MariaDB through MariaDB Connector/J: {@code jdbc:mariadb:} raw
 * against {@code jdbc:repl:mariadb:} with {@code repl.node}; target 0.65. Server from the
 * integration tests' variables REPL_IT_MARIADB_HOST, _PORT, _USER, _PASSWORD (defaults 127.0.0.1,
 * 3306, root, no password).
 */
public final class MariaDbCaptureBenchmark extends CaptureBenchmark.Server {

    MariaDbCaptureBenchmark() {
        super("mariadb", 0.65, "jdbc:mariadb://" + CaptureBenchmark.env("REPL_IT_MARIADB_HOST", "127.0.0.1") + ":"
                        + CaptureBenchmark.env("REPL_IT_MARIADB_PORT", "3306") + "/",
                CaptureBenchmark.env("REPL_IT_MARIADB_USER", "root"), CaptureBenchmark.env("REPL_IT_MARIADB_PASSWORD", ""));
    }

    public static void main(String[] args) throws Exception {
        new CaptureBenchmark(new MariaDbCaptureBenchmark()).run();
    }

    @Override
    void create(String database) throws SQLException {
        try (Connection admin = CaptureBenchmark.connect(this, url("")); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        try (Connection c = CaptureBenchmark.connect(this, url(database)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE bench_branches (bid int PRIMARY KEY, bbalance int NOT NULL, filler char(88))");
            s.execute("CREATE TABLE bench_tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance int NOT NULL, filler char(84))");
            s.execute("CREATE TABLE bench_accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL, filler char(84))");
            s.execute("CREATE TABLE bench_history (hid bigint AUTO_INCREMENT PRIMARY KEY, tid int, bid int, aid int,"
                    + " delta int, mtime timestamp(6) NULL, filler char(22))");
            // seq_1_to_N: MariaDB's SEQUENCE engine.
            s.execute("INSERT INTO bench_branches (bid, bbalance) SELECT seq, 0 FROM seq_1_to_" + CaptureBenchmark.BRANCHES);
            s.execute("INSERT INTO bench_tellers (tid, bid, tbalance) SELECT seq, (seq - 1) % " + CaptureBenchmark.BRANCHES
                    + " + 1, 0 FROM seq_1_to_" + CaptureBenchmark.TELLERS);
            s.execute("INSERT INTO bench_accounts (aid, bid, abalance) SELECT seq, (seq - 1) % " + CaptureBenchmark.BRANCHES
                    + " + 1, 0 FROM seq_1_to_" + CaptureBenchmark.ACCOUNTS);
        }
    }

    @Override
    void drop(String database) throws SQLException {
        try (Connection admin = CaptureBenchmark.connect(this, url("")); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
        }
    }

    @Override
    void printLogFigures(Connection c, PrintStream out) throws SQLException {
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT VERSION(), @@innodb_flush_log_at_trx_commit, @@log_bin, @@sync_binlog")) {
                rs.next();
                out.printf(Locale.ROOT, "server %s, innodb_flush_log_at_trx_commit=%s, log_bin=%s, sync_binlog=%s%n",
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4));
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*), avg(length(tx_id) + length(source_node) + length(command_type)"
                    + " + length(schema_name) + length(table_name) + coalesce(length(old_values), 0)"
                    + " + coalesce(length(new_values), 0) + length(column_types) + coalesce(length(change_vector), 0) + 8),"
                    + " avg(coalesce(length(old_values), 0) + coalesce(length(new_values), 0) + length(column_types)"
                    + " + coalesce(length(change_vector), 0)) FROM " + DriverTables.table(c, "repl_log"))) {
                rs.next();
                out.printf(Locale.ROOT, "repl_log: %d LCRs, %.0f bytes of column data per LCR row, %.0f bytes of JSON per LCR%n",
                        rs.getLong(1), rs.getDouble(2), rs.getDouble(3));
            }
        }
    }

    @Override
    String sessionStatementCount() {
        return "SHOW SESSION STATUS LIKE 'Questions'";
    }
}
