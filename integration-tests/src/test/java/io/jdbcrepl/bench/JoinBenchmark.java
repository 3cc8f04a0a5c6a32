package io.jdbcrepl.bench;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Join (SPEC 8.1, issue 19): a PostgreSQL donor node holding {@code bench.join.rows} (1,000,000)
 * rows of {@code account}, written {@code bench.join.rate} (200) transactions/s through the driver
 * the whole time, joined by a new node on each target server ({@code bench.join.targets}:
 * {@code postgresql,mariadb}). Per round and target, the baseline, the join, the baseline again
 * (the two baselines' ratio is the noise floor; the join is held to their mean):
 * <ul>
 * <li>the join: the CLI's {@code join} in a JVM of its own with {@code -Xmx128m}
 * ({@code bench.join.heap}; more flags in {@code bench.join.jvmArgs}, a JFR recording for instance),
 * its copy's rows/s as it reports them and the whole process's, and the most heap in use that a
 * collection found;</li>
 * <li>the baseline into an empty copy of the table, timed the same way: PostgreSQL
 * {@code pg_dump --data-only -t account | psql}; MariaDB a raw JDBC streamed read (fetch size 1000)
 * and batched insert (1000 rows, the connector's bulk insert, a commit every 20,000 rows);</li>
 * <li>after the join, the joiner's appliers start in this JVM: the time from the copy's end until a
 * donor transaction (each updates a marker row with its send time) shows up at the joiner less than
 * 50 ms after it was sent.</li>
 * </ul>
 * Needs the shaded driver jar ({@code repl.driverJar}, which the bench profile passes) and
 * {@code pg_dump}/{@code psql} on the PATH.
 */
public final class JoinBenchmark {

    private static final Pattern COPIED = Pattern.compile("account\\W*: (\\d+) rows copied \\((\\d+) rows/s\\)");
    private static final Pattern GC = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
    private static final long CAUGHT_UP_MICROS = 50_000;

    private final int rows = Integer.getInteger("bench.join.rows", 1_000_000);
    private final int rate = Integer.getInteger("bench.join.rate", 200);
    private final int rounds = Integer.getInteger("bench.rounds", 3);
    private final String heap = System.getProperty("bench.join.heap", "128m");
    private final String jvmArgs = System.getProperty("bench.join.jvmArgs", "").trim();
    /** {@code true}: the PostgreSQL joiner's holder column is TEXT, not the donor's VARCHAR: the join's portable path, not COPY. */
    private final boolean portable = Boolean.getBoolean("bench.join.portable");
    private final List<String> targets = List.of(System.getProperty("bench.join.targets", "postgresql,mariadb").split(","));
    /** Options of the MariaDB baseline's URL, {@code ?rewriteBatchedStatements=true} for instance: none, the connector's defaults. */
    private final String baselineOptions = System.getProperty("bench.join.baselineOptions", "");
    private final PrintStream out = System.out;
    private TestDatabase donor;
    private String donorUrl;
    private int joiners;
    /** The donor's writers, whose transactions a join counts. */
    private MarkerWriters writers;

    public static void main(String[] args) throws Exception {
        new JoinBenchmark().run();
    }

    void run() throws Exception {
        out.println("JoinBenchmark " + ZonedDateTime.now().withNano(0) + ", java " + Runtime.version() + ", "
                + Runtime.getRuntime().availableProcessors() + " processors; " + rows + " rows, " + rate
                + " donor transactions/s, join JVM -Xmx" + heap + ", " + rounds + " rounds, targets " + targets
                + (portable ? ", PostgreSQL joiner's holder TEXT (portable path)" : ""));
        donor = TestDatabase.create(Vendor.POSTGRESQL, "join_donor");
        try {
            seedDonor();
            donorUrl = donor.replUrl(Map.of("repl.node", "n1", "repl.apply", "false"));
            DriverManager.getConnection(donorUrl, donor.credentials()).close(); // installs n1's change log
            writers = new MarkerWriters(donorUrl, donor.credentials(), rate, rows,
                    "UPDATE account SET score = score + 1, updated = ? WHERE id = ?", (ps, id) -> {
                        ps.setTimestamp(1, new java.sql.Timestamp(System.currentTimeMillis()));
                        ps.setLong(2, id);
                    }, out);
            Map<String, List<double[]>> results = new LinkedHashMap<>();
            try {
                for (int round = 1; round <= rounds; round++) {
                    for (String target : targets) {
                        Vendor v = target.trim().equals("mariadb") ? Vendor.MARIADB : Vendor.POSTGRESQL;
                        // the join between two baselines: their ratio is the noise floor, their mean what the join is held to
                        double before = baseline(v);
                        JoinRun join = join(v);
                        double after = baseline(v);
                        double baseline = (before + after) / 2;
                        double[] r = {join.copyRate, join.processRate, baseline, join.caughtUpSeconds, join.peakHeapMb,
                                after / before};
                        results.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(r);
                        out.printf(Locale.ROOT, "round %d %s: join copy %.0f rows/s (whole process %.0f rows/s, peak heap %.0f MB),"
                                + " baseline %.0f and %.0f rows/s (noise %.2f), ratio %.2f; caught up %.2f s after the copy's end"
                                + " (join process ended +%.2f s, appliers started +%.2f s; %d donor transactions during the copy,"
                                + " donor at %.0f transactions/s)%n", round, v, r[0], r[1], r[4], before, after, r[5], r[0] / r[2],
                                r[3], join.exitedSeconds, join.startedSeconds, join.transactionsDuringCopy, writers.rate());
                    }
                }
            } finally {
                writers.stop();
            }
            summarize(results);
        } finally {
            Repl.shutdown();
            donor.close();
        }
    }

    private void seedDonor() throws SQLException {
        try (Connection c = donor.openRaw(); Statement s = c.createStatement()) {
            for (String sql : tables(Vendor.POSTGRESQL, false)) s.execute(sql);
            s.execute("INSERT INTO account SELECT g, g % 1000, g % 7, (g * 37) % 100000, 'account holder ' || g || ' of the"
                    + " benchmark, with some text', round((g % 100000) * 1.37, 2), timestamp '2026-01-01' + g * interval '1"
                    + " second' FROM generate_series(1, " + rows + ") g");
            s.execute("INSERT INTO marker VALUES (1, 0)");
            s.execute("VACUUM ANALYZE account");
        }
    }

    /** The benchmark's tables on {@code v}: the same shape on both servers ({@code text}: holder as TEXT). */
    private static List<String> tables(Vendor v, boolean text) {
        boolean pg = v == Vendor.POSTGRESQL;
        return List.of("CREATE TABLE account (id BIGINT PRIMARY KEY, branch INT NOT NULL, kind INT NOT NULL, score INT,"
                        + " holder " + (text ? "TEXT" : "VARCHAR(100)") + " NOT NULL, balance NUMERIC(14, 2) NOT NULL, updated " + (pg ? "TIMESTAMP" : "DATETIME(6)")
                        + " NOT NULL)",
                "CREATE TABLE marker (id INT PRIMARY KEY, sent_us BIGINT NOT NULL)");
    }

    // ---- the join, in a JVM of its own

    private static final class JoinRun {
        double copyRate;
        double processRate;
        double caughtUpSeconds;
        double peakHeapMb;
        long transactionsDuringCopy;
        /** Seconds from the copy's end until the join's process had ended, and until the appliers ran. */
        double exitedSeconds;
        double startedSeconds;
    }

    private JoinRun join(Vendor v) throws Exception {
        String name = "j" + ++joiners;
        try (TestDatabase joiner = TestDatabase.create(v, "join_" + name)) {
            createTables(joiner);
            Map<String, String> p = new LinkedHashMap<>();
            p.put("repl.node", name);
            p.put("repl.peers", "n1");
            p.putAll(donor.asPeer("n1"));
            Map<String, String> joining = new LinkedHashMap<>(p);
            joining.put("repl.apply", "false");
            Path gcLog = Files.createTempFile("join-gc", ".log");
            Files.delete(gcLog); // the JVM would keep a file there as gcLog.0
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx" + heap, "-Xlog:gc:file=" + gcLog));
            if (!jvmArgs.isEmpty()) command.addAll(List.of(jvmArgs.split("\\s+")));
            command.addAll(List.of("-cp", classPath(), "io.jdbcrepl.cli.Main", "join", "--url", joiner.replUrl(joining), "--from",
                    "n1", "--user", joiner.user()));
            if (!joiner.password().isEmpty()) command.addAll(List.of("--password", joiner.password()));
            JoinRun run = new JoinRun();
            long transactionsBefore = writers.transactions();
            long started = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            long copyEndMicros = 0;
            long copied = 0;
            List<String> output = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    output.add(line);
                    Matcher m = COPIED.matcher(line);
                    if (m.find()) {
                        copyEndMicros = MarkerWriters.nowMicros();
                        run.transactionsDuringCopy = writers.transactions() - transactionsBefore;
                        copied = Long.parseLong(m.group(1));
                        run.copyRate = Double.parseDouble(m.group(2));
                    }
                }
            }
            if (process.waitFor() != 0 || copyEndMicros == 0) {
                throw new IllegalStateException("join failed:\n" + String.join("\n", output));
            }
            run.processRate = copied / ((System.nanoTime() - started) / 1e9);
            run.exitedSeconds = (MarkerWriters.nowMicros() - copyEndMicros) / 1e6;
            run.peakHeapMb = peakHeap(gcLog);
            Files.deleteIfExists(gcLog);
            catchUp(joiner, p, copyEndMicros, run);
            if (copied < rows) throw new IllegalStateException("the join copied " + copied + " rows of " + rows);
            return run;
        }
    }

    /** The shaded driver and both vendors' drivers (the donor's and the joiner's). */
    private static String classPath() throws Exception {
        String jar = System.getProperty("repl.driverJar");
        if (jar == null || !new File(jar).isFile()) {
            throw new IllegalStateException("repl.driverJar must name the shaded driver jar (the bench profile passes it): " + jar);
        }
        List<String> cp = new ArrayList<>(List.of(jar));
        for (Class<?> c : List.of(org.postgresql.Driver.class, org.mariadb.jdbc.Driver.class)) {
            cp.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return String.join(File.pathSeparator, cp);
    }

    /** The most heap in use that a collection found (before it), from {@code -Xlog:gc}; 0 when none ran. */
    private static double peakHeap(Path gcLog) throws Exception {
        double peak = 0;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = GC.matcher(line);
            if (m.find()) peak = Math.max(peak, Double.parseDouble(m.group(1)));
        }
        return peak;
    }

    /**
     * Starts the joiner's appliers here (its first connection with {@code repl.peers}) and records the
     * seconds from the copy's end until a donor transaction is seen at the joiner less than 50 ms
     * after it was sent.
     */
    private void catchUp(TestDatabase joiner, Map<String, String> node, long copyEndMicros, JoinRun run) throws Exception {
        try (Connection observer = joiner.openRaw();
                PreparedStatement ps = observer.prepareStatement("SELECT sent_us FROM marker WHERE id = 1");
                Connection app = DriverManager.getConnection(joiner.replUrl(node), joiner.credentials())) {
            run.startedSeconds = (MarkerWriters.nowMicros() - copyEndMicros) / 1e6;
            long last = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            try {
                while (System.nanoTime() < deadline) {
                    try (ResultSet rs = ps.executeQuery()) {
                        long now = MarkerWriters.nowMicros();
                        rs.next();
                        long sent = rs.getLong(1);
                        if (sent != last) {
                            last = sent;
                            if (now - sent < CAUGHT_UP_MICROS) {
                                run.caughtUpSeconds = (now - copyEndMicros) / 1e6;
                                return;
                            }
                        }
                    }
                    Thread.sleep(2);
                }
                throw new IllegalStateException("the joiner did not catch up within 300 s");
            } finally {
                app.unwrap(ReplAdmin.class).stopApply();
            }
        }
    }

    // ---- the baselines

    private double baseline(Vendor v) throws Exception {
        try (TestDatabase copy = TestDatabase.create(v, "join_base")) {
            createTables(copy);
            long started = System.nanoTime();
            if (v == Vendor.POSTGRESQL) dumpAndRestore(copy);
            else streamAndInsert(copy);
            double seconds = (System.nanoTime() - started) / 1e9;
            long copied = count(copy);
            if (copied != rows) throw new IllegalStateException("the baseline copied " + copied + " rows of " + rows);
            return copied / seconds;
        }
    }

    private void dumpAndRestore(TestDatabase copy) throws Exception {
        String connect = "-h 127.0.0.1 -p " + port(donor) + " -U " + donor.user();
        String script = "pg_dump --data-only -t public.account " + connect + " " + donor.name() + " | psql -q -v ON_ERROR_STOP=1 "
                + connect + " " + copy.name();
        ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", script).redirectErrorStream(true);
        if (!donor.password().isEmpty()) pb.environment().put("PGPASSWORD", donor.password());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IllegalStateException("pg_dump | psql failed: " + output);
    }

    private static String port(TestDatabase db) {
        Matcher m = Pattern.compile("//[^:/]+:(\\d+)/").matcher(db.rawUrl());
        return m.find() ? m.group(1) : "5432";
    }

    /**
     * A fast raw client: streamed read, batches of 1000 (the MariaDB connector's defaults send an
     * insert's batch as one bulk command), a commit every 20,000 rows.
     */
    private void streamAndInsert(TestDatabase copy) throws SQLException {
        try (Connection from = donor.openRaw();
                Connection to = DriverManager.getConnection(copy.rawUrl() + baselineOptions, copy.credentials());
                PreparedStatement read = from.prepareStatement("SELECT id, branch, kind, score, holder, balance, updated FROM account");
                PreparedStatement write = to.prepareStatement("INSERT INTO account (id, branch, kind, score, holder, balance, updated)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            from.setAutoCommit(false);
            to.setAutoCommit(false);
            read.setFetchSize(1000);
            try (ResultSet rs = read.executeQuery()) {
                int n = 0;
                while (rs.next()) {
                    write.setLong(1, rs.getLong(1));
                    write.setInt(2, rs.getInt(2));
                    write.setInt(3, rs.getInt(3));
                    write.setObject(4, rs.getObject(4));
                    write.setString(5, rs.getString(5));
                    write.setBigDecimal(6, rs.getBigDecimal(6));
                    write.setTimestamp(7, rs.getTimestamp(7));
                    write.addBatch();
                    if (++n % 1000 == 0) write.executeBatch();
                    if (n % 20_000 == 0) to.commit();
                }
                write.executeBatch();
                to.commit();
            }
            from.commit();
        }
    }

    // ---- helpers

    private void createTables(TestDatabase db) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            for (String sql : tables(db.vendor(), portable && db.vendor() == Vendor.POSTGRESQL)) s.execute(sql);
        }
    }

    private static long count(TestDatabase db) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM account")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void summarize(Map<String, List<double[]>> results) {
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            List<double[]> rs = e.getValue();
            out.printf(Locale.ROOT, "%s, %d rounds: median join copy %.0f rows/s (whole process %.0f), baseline %.0f rows/s;"
                    + " ratio of medians %.2f, round ratios %s, noise (baseline after / before) %s; caught up after the copy:"
                    + " median %.2f s, max %.2f s; peak heap max %.0f MB of %s%n", e.getKey(), rs.size(), median(rs, 0),
                    median(rs, 1), median(rs, 2), median(rs, 0) / median(rs, 2), ratios(rs, 0, 2), ratios(rs, 5, -1),
                    median(rs, 3), max(rs, 3), max(rs, 4), heap);
        }
    }

    /** Column {@code over} / column {@code under} of each round ({@code under} -1: column {@code over} itself). */
    private static String ratios(List<double[]> rs, int over, int under) {
        List<String> r = new ArrayList<>();
        for (double[] x : rs) r.add(String.format(Locale.ROOT, "%.2f", under < 0 ? x[over] : x[over] / x[under]));
        return String.join(" ", r);
    }

    private static double median(List<double[]> rs, int column) {
        List<Double> v = new ArrayList<>();
        for (double[] x : rs) v.add(x[column]);
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static double max(List<double[]> rs, int column) {
        double m = 0;
        for (double[] x : rs) m = Math.max(m, x[column]);
        return m;
    }

}
