// Sequential probe (not part of the build): java [-Dn=1500 -Dreps=3] -cp <integration-tests test class path> MdbProbe.java
// Creates and drops its own database probe_cap_<hex>; prints wall time and mariadbd CPU (from /proc) per operation.
import java.nio.file.*;
import java.sql.*;
import java.util.*;
import java.util.concurrent.ThreadLocalRandom;

/** Sequential probe: mariadbd CPU and wall per single-row UPDATE, per variant. */
public class MdbProbe {
    static final String DB = "probe_cap_" + Long.toHexString(System.nanoTime());
    static final int ACCOUNTS = 10000;
    static long pid;

    static long serverCpuMicros() throws Exception {
        String[] f = Files.readString(Path.of("/proc/" + pid + "/stat")).split("\\) ")[1].split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return ticks * 10000L;
    }

    interface Op { void run(int aid, int delta) throws Exception; }

    static long tx = 0;
    static String lit(String s) { return "_utf8mb4 X'" + HexFormat.of().formatHex(s.getBytes()) + "'"; }

    public static void main(String[] a) throws Exception {
        pid = Long.parseLong(new String(Runtime.getRuntime().exec(new String[]{"pidof", "mariadbd"}).getInputStream().readAllBytes()).trim().split(" ")[0]);
        String base = "jdbc:mariadb://127.0.0.1:3306/";
        try (Connection c = DriverManager.getConnection(base, "root", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + DB);
        }
        try {
            run(base);
        } finally {
            try (Connection c = DriverManager.getConnection(base, "root", ""); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE " + DB);
            }
        }
    }

    static void run(String base) throws Exception {
        Connection raw = DriverManager.getConnection(base + DB, "root", "");
        try (Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE bench_accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL, filler char(84))");
            s.execute("INSERT INTO bench_accounts (aid, bid, abalance) SELECT seq, 1, 0 FROM seq_1_to_" + ACCOUNTS);
        }
        // the driver creates repl_log etc.
        Properties p = new Properties(); p.setProperty("user", "root"); p.setProperty("password", ""); p.setProperty("repl.node", "probe");
        Connection repl = DriverManager.getConnection("jdbc:repl:mariadb://127.0.0.1:3306/" + DB, p);
        Connection multi = DriverManager.getConnection(base + DB + "?allowMultiQueries=true", "root", "");
        String[] extra = System.getProperty("extra", "").split(";");
        PreparedStatement rawUpd = raw.prepareStatement("UPDATE bench_accounts SET abalance = abalance + ? WHERE aid = ?");
        PreparedStatement replUpd = repl.prepareStatement("UPDATE bench_accounts SET abalance = abalance + ? WHERE aid = ?");
        String types = "{\"aid\":\"INTEGER\",\"abalance\":\"INTEGER\"}";
        String cv = "[\"abalance\"]";
        String cols = "(tx_id, source_node, command_type, schema_name, table_name, old_values, new_values, column_types, change_vector)";
        Map<String, Op> ops = new LinkedHashMap<>();
        ops.put("raw", (aid, d) -> { rawUpd.setInt(1, d); rawUpd.setInt(2, aid); rawUpd.executeUpdate(); });
        ops.put("capture", (aid, d) -> { replUpd.setInt(1, d); replUpd.setInt(2, aid); replUpd.executeUpdate(); });
        // compound statements as the driver sends them, through the raw connection
        ops.put("compound2", (aid, d) -> {
            String t = "p-" + (++tx);
            int old;
            try (Statement s = raw.createStatement()) {
                s.execute("BEGIN NOT ATOMIC DECLARE repl_n INT DEFAULT 0; DECLARE repl_r BIGINT DEFAULT -1;\nSTART TRANSACTION;\n"
                        + "SELECT aid, abalance FROM bench_accounts WHERE (aid = " + aid + ") FOR UPDATE;\nSET repl_n = FOUND_ROWS();\n"
                        + "IF repl_n = 1 THEN UPDATE bench_accounts SET abalance = abalance + " + d + " WHERE (aid = " + aid + "\n);\n"
                        + "SET repl_r = ROW_COUNT();\nSELECT repl_r, aid, abalance FROM bench_accounts WHERE (aid = " + aid + "\n);\nEND IF;\nEND");
                ResultSet rs = s.getResultSet(); rs.next(); old = rs.getInt(2);
                s.getMoreResults(); rs = s.getResultSet(); rs.next(); int now = rs.getInt(3);
                while (s.getMoreResults() || s.getUpdateCount() != -1) { }
                String lt = lit(t);
                s.execute("BEGIN NOT ATOMIC\nDECLARE repl_last BIGINT DEFAULT 0;\nDECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;\n"
                        + "INSERT INTO repl_log " + cols + " VALUES (" + lt + ", " + lit("probe") + ", " + lit("UPDATE") + ", " + lit(DB) + ", " + lit("bench_accounts")
                        + ", " + lit("{\"aid\":" + aid + ",\"abalance\":" + old + "}") + ", " + lit("{\"abalance\":" + now + "}") + ", " + lit(types) + ", " + lit(cv) + ");\n"
                        + "SELECT COALESCE(MAX(position), 0) INTO repl_last FROM repl_log WHERE tx_id = " + lt + ";\n"
                        + "INSERT INTO repl_tx (tx_id, epoch, last_position) SELECT " + lt + ", epoch, repl_last FROM repl_epoch WHERE id = 1 LOCK IN SHARE MODE;\n"
                        + "IF ROW_COUNT() <> 1 THEN SIGNAL SQLSTATE '55000' SET MESSAGE_TEXT = 'no epoch'; END IF;\nCOMMIT;\nEND");
            }
        });
        ops.put("multi2", (aid, d) -> {
            String t = "m-" + (++tx);
            int old;
            try (Statement s = multi.createStatement()) {
                s.execute("START TRANSACTION; SELECT aid, abalance FROM bench_accounts WHERE (aid = " + aid + ") FOR UPDATE;"
                        + " UPDATE bench_accounts SET abalance = abalance + " + d + " WHERE (aid = " + aid + ");"
                        + " SELECT ROW_COUNT(), aid, abalance FROM bench_accounts WHERE (aid = " + aid + ")");
                s.getMoreResults();
                ResultSet rs = s.getResultSet(); rs.next(); old = rs.getInt(2);
                s.getMoreResults(); s.getMoreResults(); rs = s.getResultSet(); rs.next(); int now = rs.getInt(3);
                while (s.getMoreResults() || s.getUpdateCount() != -1) { }
                String lt = lit(t);
                s.execute("INSERT INTO repl_log " + cols + " VALUES (" + lt + ", " + lit("probe") + ", " + lit("UPDATE") + ", " + lit(DB) + ", " + lit("bench_accounts")
                        + ", " + lit("{\"aid\":" + aid + ",\"abalance\":" + old + "}") + ", " + lit("{\"abalance\":" + now + "}") + ", " + lit(types) + ", " + lit(cv) + ");"
                        + " INSERT INTO repl_tx (tx_id, epoch, last_position) VALUES (" + lt + ", (SELECT epoch FROM repl_epoch WHERE id = 1 LOCK IN SHARE MODE), LAST_INSERT_ID());"
                        + " COMMIT");
                while (s.getMoreResults() || s.getUpdateCount() != -1) { }
            }
        });
        ops.put("multi2-nostamp", (aid, d) -> {
            String t = "n-" + (++tx);
            try (Statement s = multi.createStatement()) {
                s.execute("START TRANSACTION; SELECT aid, abalance FROM bench_accounts WHERE (aid = " + aid + ") FOR UPDATE;"
                        + " UPDATE bench_accounts SET abalance = abalance + " + d + " WHERE (aid = " + aid + ");"
                        + " SELECT ROW_COUNT(), aid, abalance FROM bench_accounts WHERE (aid = " + aid + ")");
                while (s.getMoreResults() || s.getUpdateCount() != -1) { }
                String lt = lit(t);
                s.execute("INSERT INTO repl_log " + cols + " VALUES (" + lt + ", " + lit("probe") + ", " + lit("UPDATE") + ", " + lit(DB) + ", " + lit("bench_accounts")
                        + ", " + lit("{\"aid\":" + aid + ",\"abalance\":1}") + ", " + lit("{\"abalance\":2}") + ", " + lit(types) + ", " + lit(cv) + "); COMMIT");
                while (s.getMoreResults() || s.getUpdateCount() != -1) { }
            }
        });
        ops.put("multi1-rawtx", (aid, d) -> { // the raw statement in a transaction with read and read-back, nothing logged
            try (Statement s = multi.createStatement()) {
                s.execute("START TRANSACTION; SELECT aid, abalance FROM bench_accounts WHERE (aid = " + aid + ") FOR UPDATE;"
                        + " UPDATE bench_accounts SET abalance = abalance + " + d + " WHERE (aid = " + aid + ");"
                        + " SELECT ROW_COUNT(), aid, abalance FROM bench_accounts WHERE (aid = " + aid + "); COMMIT");
                while (s.getMoreResults() || s.getUpdateCount() != -1) { }
            }
        });
        int n = Integer.getInteger("n", 1500);
        int reps = Integer.getInteger("reps", 3);
        Map<String, List<long[]>> results = new LinkedHashMap<>();
        for (int r = 0; r < reps + 1; r++) {
            for (var e : ops.entrySet()) {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                long cpu0 = serverCpuMicros(), t0 = System.nanoTime();
                for (int i = 0; i < n; i++) e.getValue().run(rnd.nextInt(1, ACCOUNTS + 1), rnd.nextInt(-5000, 5000));
                long wall = (System.nanoTime() - t0) / 1000, cpu = serverCpuMicros() - cpu0;
                if (r > 0) results.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new long[]{wall / n, cpu / n});
            }
        }
        for (var e : results.entrySet()) {
            StringBuilder sb = new StringBuilder(String.format("%-16s", e.getKey()));
            for (long[] v : e.getValue()) sb.append(String.format("  wall %4d us server %4d us", v[0], v[1]));
            System.out.println(sb);
        }
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM repl_log")) { rs.next(); System.out.println("repl_log " + rs.getLong(1)); }
    }
}
