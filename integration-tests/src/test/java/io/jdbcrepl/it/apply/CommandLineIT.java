package io.jdbcrepl.it.apply;

import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.TcpProxy;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The commands of SPEC 7 against two real nodes: their text output, their --json output, their
 * exit codes (0 ok, 1 failed, 2 usage or configuration) and their one-line errors. (verify: VerifyCommandIT; demo: DemoIT.)
 */
class CommandLineIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private Cluster cluster;

    record Run(int exit, String out, String err) {
    }

    @AfterEach
    void stop() {
        if (cluster != null) cluster.close();
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private void twoNodes(Map<String, String> extra) throws Exception {
        cluster = new Cluster(databases.nodes(Vendor.POSTGRESQL, "cli", 2), extra);
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "INSERT INTO employees VALUES (200, 4400)"));
    }

    @Test
    void installStatusAndWait() throws Exception {
        twoNodes(Map.of());
        Run install = cli("install", "--url", cluster.url(0));
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(install.out()).isEqualTo("The driver's tables are in schema repl of node n1.\n");

        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        Run await = cli("wait", "--url", cluster.url(0), "--timeout", "30s");
        assertThat(await.exit()).as(await.err()).isZero();
        assertThat(await.out()).isEqualTo("Node n1 has applied everything its peers [n2] had committed.\n");
        assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5000);

        Run status = cli("status", "--url", cluster.url(0));
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out().lines().toList()).hasSizeGreaterThanOrEqualTo(3).satisfies(lines -> {
            assertThat(lines.get(0)).isEqualTo("Node n1");
            assertThat(lines.get(1)).matches("PEER +STATE +LAG\\(TX\\) +LAG\\(S\\) +IDLE\\(S\\) +ERROR_QUEUE +APPLIED");
            assertThat(lines.get(2)).matches("n2 +RUNNING +0 +0 +\\d+ +0 +pg\\|.*"); // idle: seconds since the update was applied
        });

        Run json = cli("status", "--url", cluster.url(0), "--json");
        assertThat(json.exit()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = (Map<String, Object>) Json.read(json.out().trim());
        assertThat(parsed.get("node")).isEqualTo("n1");
        assertThat((List<?>) parsed.get("peers")).singleElement().satisfies(p -> {
            Map<?, ?> peer = (Map<?, ?>) p;
            assertThat(peer.get("peer")).isEqualTo("n2");
            assertThat(peer.get("state")).isEqualTo("RUNNING");
            assertThat(peer.get("lagTransactions").toString()).isEqualTo("0");
            assertThat(peer.get("errorCount").toString()).matches("\\d+");
            assertThat(peer.get("queueDepth").toString()).isEqualTo("0");
            assertThat(peer.get("secondsSinceApplied").toString()).matches("\\d+");
        });
        assertThat((List<?>) parsed.get("droppedSubscribers")).isEmpty();
    }

    @Test
    void statusListsTheReplicatedTablesWithoutKey() throws Exception {
        cluster = new Cluster(databases.nodes(Vendor.POSTGRESQL, "cli_keyless", 2));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "CREATE TABLE history (h_id INT, note TEXT)", "CREATE TABLE keyed (a INT, b INT)"));
        Map<String, String> key = Map.of("repl.key.keyed", "a");
        cluster.with(0, key);
        Run status = cli("status", "--url", cluster.url(0));
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out().lines().toList())
                .contains("Tables without primary key, replicated by every comparable column: public.history");
        Run json = cli("status", "--url", cluster.url(0), "--json");
        assertThat(json.exit()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = (Map<String, Object>) Json.read(json.out().trim());
        assertThat(parsed.get("keylessTables")).isEqualTo(List.of("public.history"));
    }

    /** A timeout shorter than the grace an applier has to show up: the timeout, named as the user wrote it. */
    @Test
    void waitTimesOutWhenNothingApplies() throws Exception {
        twoNodes(Map.of("repl.apply", "false"));
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        Run await = cli("wait", "--url", cluster.url(0), "--timeout", "300ms");
        assertThat(await.exit()).isEqualTo(1);
        assertThat(await.out()).isEmpty();
        assertThat(await.err().lines()).singleElement().asString().startsWith("jdbc-repl: wait: Waited 300ms for the changes of peer n2")
                .contains("; no applier from n2 holds its apply lock and none applied anything meanwhile")
                .doesNotContain("PT0.3S");
    }

    /**
     * The Java call has no grace: it waits its whole timeout without an applier (one between two
     * sessions holds no lock for a while), then names the timeout as people write it and says that
     * no applier ran.
     */
    @Test
    void theJavaCallWaitsItsWholeTimeoutAndSaysNoApplierRan() throws Exception {
        twoNodes(Map.of("repl.apply", "false"));
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        long start = System.nanoTime();
        assertThatThrownBy(() -> cluster.admin(0).waitForPeers(java.time.Duration.ofMillis(4500)))
                .isInstanceOfSatisfying(java.sql.SQLTimeoutException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("HYT00");
                    assertThat(e.getMessage()).startsWith("Waited 4s500ms for the changes of peer n2 to be applied at n1")
                            .contains("; no applier from n2 holds its apply lock and none applied anything meanwhile");
                });
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("no grace of 3 s").isGreaterThanOrEqualTo(4500);
    }

    /**
     * {@code status} reads the applier's state from the database, not from its own JVM: an applier
     * in another process (PostgreSQL, MariaDB: the apply command in a JVM of its own; H2, in memory:
     * an applier of this JVM that status, with another URL for the same database, does not share)
     * shows RUNNING and the lag the database holds (one transaction while the applier of another
     * JVM waits for a row the test keeps locked), and NOT_RUNNING once it stops. Then {@code wait}
     * with no applier anywhere fails at once instead of running its minute.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void statusAndWaitSeeTheApplierOfAnotherProcess(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "cli_other", 2), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "INSERT INTO employees VALUES (200, 4400)"));
        String statusUrl = vendor == Vendor.H2 ? otherUrlForTheSameDatabase(cluster.url(0)) : cluster.url(0);
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");

        assertThat(peerLine(statusUrl)).matches("n2 +NOT_RUNNING +1 +\\d+ +- +0 +-");

        Process process = null;
        Path log = Files.createTempFile("cli-apply", ".log");
        if (vendor == Vendor.H2) {
            cluster.admin(0).startApply();
        } else {
            process = ApplierProcess.start(cluster.url(0), cluster.db(0), log, "64m");
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90); // a JVM starting on a busy machine
            String line = peerLine(statusUrl);
            while (!line.matches("n2 +RUNNING +0 .*")) {
                assertThat(System.nanoTime()).as("status while the other process applies: %s; its log: %s", line,
                        Files.exists(log) ? Files.readString(log) : "").isLessThan(deadline);
                Thread.sleep(200);
                line = peerLine(statusUrl);
            }
            assertThat(line).matches("n2 +RUNNING +0 +0 +\\d+ +0 +\\S+");
            assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5000);
            Run json = cli(withCredentials(statusUrl, "status", "--json"));
            @SuppressWarnings("unchecked")
            Map<String, Object> peer = (Map<String, Object>) ((List<?>) ((Map<?, ?>) Json.read(json.out().trim())).get("peers")).get(0);
            assertThat(peer.get("state")).isEqualTo("RUNNING");
            assertThat(peer.get("errorCount").toString()).isEqualTo("0"); // counted by the applier's own process only

            if (process != null) {
                // the real lag while the other process applies: it waits for a row this test keeps locked
                try (var holder = cluster.db(0).openRaw()) {
                    holder.setAutoCommit(false);
                    try (var s = holder.createStatement()) {
                        s.executeQuery("SELECT salary FROM employees WHERE employee_id = 200 FOR UPDATE").close();
                    }
                    cluster.execute(1, "UPDATE employees SET salary = 5050 WHERE employee_id = 200");
                    long lagDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    String lagging = peerLine(statusUrl);
                    while (!lagging.matches("n2 +RUNNING +1 +\\d+ .*")) {
                        assertThat(System.nanoTime()).as("status while the other process waits for the row: %s", lagging)
                                .isLessThan(lagDeadline);
                        Thread.sleep(200);
                        lagging = peerLine(statusUrl);
                    }
                    holder.rollback();
                }
                long caughtUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!peerLine(statusUrl).matches("n2 +RUNNING +0 .*")) {
                    assertThat(System.nanoTime()).as("status once the row is free again").isLessThan(caughtUp);
                    Thread.sleep(200);
                }
                assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5050);
            }

            cluster.execute(1, "UPDATE employees SET salary = 5100 WHERE employee_id = 200");
            Run await = cli(withCredentials(statusUrl, "wait", "--timeout", "60s"));
            assertThat(await.exit()).as(await.err()).isZero();
            assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5100);
        } finally {
            if (process != null) {
                process.destroy(); // SIGTERM: its shutdown hook stops the applier, which frees the lock
                assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } else {
                cluster.admin(0).stopApply();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!peerLine(statusUrl).contains(" NOT_RUNNING ")) {
            assertThat(System.nanoTime()).as("status once the applier stopped").isLessThan(deadline);
            Thread.sleep(200);
        }

        cluster.execute(1, "UPDATE employees SET salary = 5200 WHERE employee_id = 200");
        long start = System.nanoTime();
        Run await = cli(withCredentials(statusUrl, "wait", "--timeout", "60s"));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertThat(await.exit()).isEqualTo(1);
        assertThat(seconds).as("wait without an applier fails at once, not after its timeout").isLessThan(20);
        assertThat(await.err().lines()).singleElement().asString()
                .startsWith("jdbc-repl: wait failed: No applier from peer n2 runs at n1: none holds its apply lock")
                .endsWith("(SQLState 55000)");
    }

    /** The H2 URL with one more harmless setting: the same database, but not the same node for this JVM. */
    private static String otherUrlForTheSameDatabase(String url) {
        int query = url.indexOf('?');
        return url.substring(0, query) + ";TRACE_LEVEL_SYSTEM_OUT=0" + url.substring(query);
    }

    private String[] withCredentials(String url, String... command) {
        List<String> all = new java.util.ArrayList<>(List.of(command));
        all.addAll(List.of("--url", url, "--user", cluster.db(0).user()));
        if (!cluster.db(0).password().isEmpty()) all.addAll(List.of("--password", cluster.db(0).password()));
        return all.toArray(String[]::new);
    }

    /** {@code status}'s line of peer n2. */
    private String peerLine(String url) {
        Run status = cli(withCredentials(url, "status"));
        assertThat(status.exit()).as(status.err()).isZero();
        List<String> lines = status.out().lines().toList();
        assertThat(lines.get(1)).matches("PEER +STATE +LAG\\(TX\\) +LAG\\(S\\) +IDLE\\(S\\) +ERROR_QUEUE +APPLIED");
        return lines.get(2);
    }

    @Test
    void errorsListShowRetryAndDeleteWithTheirOutput() throws Exception {
        twoNodes(Map.of("repl.apply", "false"));
        cluster.execute(0, "UPDATE employees SET salary = 4900 WHERE employee_id = 200");
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        cluster.admin(0).startApply();
        cluster.admin(0).waitForPeers(Cluster.WAIT);

        Run list = cli("errors", "list", "--url", cluster.url(0));
        assertThat(list.exit()).isZero();
        List<String> lines = list.out().lines().toList();
        assertThat(lines.get(0)).matches("ID +SOURCE +TRANSACTION +POSITION +LCRS +CODE +ERROR");
        assertThat(lines).hasSize(2);
        String id = lines.get(1).split(" +")[0];
        assertThat(lines.get(1)).matches(id + " +n2 +\\S+ +\\d+ +1 +ROW_EXISTS +.*salary.*");

        Run show = cli("errors", "show", "--url", cluster.url(0), id);
        assertThat(show.exit()).isZero();
        assertThat(show.out().lines().toList()).satisfies(l -> {
            assertThat(l.get(0)).startsWith("Entry " + id + ": transaction ").contains(" from n2 (position ");
            assertThat(l.get(1)).startsWith("Error at LCR 1 of 1, ROW_EXISTS: ");
            assertThat(l.get(2)).startsWith("  1. UPDATE ").contains("old {").contains("new {").contains("5000");
        });
        Run showJson = cli("errors", "show", "--url", cluster.url(0), id, "--json");
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = (Map<String, Object>) Json.read(showJson.out().trim());
        assertThat(entry.get("sourceDatabase")).isEqualTo("n2");
        assertThat((List<?>) entry.get("lcrs")).singleElement()
                .satisfies(l -> assertThat(((Map<?, ?>) l).get("command")).isEqualTo("UPDATE"));

        Run missing = cli("errors", "show", "--url", cluster.url(0), "999999");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err().lines()).singleElement().asString()
                .startsWith("jdbc-repl: errors show failed: ").endsWith("(SQLState 02000)");
        Run notAnId = cli("errors", "show", "--url", cluster.url(0), "x1");
        assertThat(notAnId.exit()).isEqualTo(2);
        assertThat(notAnId.err()).startsWith("jdbc-repl: 'errors show' needs the entry's id as 'errors list' shows it, not 'x1'");

        Run stillConflicting = cli("errors", "retry", "--url", cluster.url(0), id);
        assertThat(stillConflicting.exit()).isEqualTo(1);
        assertThat(stillConflicting.err().lines()).singleElement().asString().startsWith("jdbc-repl: errors retry: ");

        try (var c = cluster.db(0).openRaw(); var s = c.createStatement()) {
            s.execute("UPDATE employees SET salary = 4400 WHERE employee_id = 200"); // the cause fixed
        }
        Run retried = cli("errors", "retry", "--url", cluster.url(0), id);
        assertThat(retried.exit()).as(retried.err()).isZero();
        assertThat(retried.out()).isEqualTo("Entry " + id + " applied and removed from the error queue.\n");
        assertThat(cli("errors", "list", "--url", cluster.url(0)).out()).isEqualTo("The error queue is empty.\n");
        assertThat(cli("errors", "list", "--url", cluster.url(0), "--json").out().trim()).isEqualTo("[]");
        Run all = cli("errors", "retry", "--url", cluster.url(0), "--all");
        assertThat(all.out()).isEqualTo("Applied 0 of 0 queued entries; the queue is empty.\n");

        Run deleteGone = cli("errors", "delete", "--url", cluster.url(0), id);
        assertThat(deleteGone.exit()).isEqualTo(1);
        assertThat(deleteGone.err()).endsWith("(SQLState 02000)\n");
    }

    @Test
    void applyRunsUntilStopped() throws Exception {
        twoNodes(Map.of("repl.apply", "false"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> apply = CompletableFuture.supplyAsync(() -> Main.run(
                new String[] {"apply", "--url", cluster.url(0)}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        cluster.admin(0).waitForPeers(Cluster.WAIT);
        assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5000);
        assertThat(apply).isNotDone();
        cluster.admin(0).stopApply();
        assertThat(apply.get(30, TimeUnit.SECONDS)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("Applying the changes of [n2] at n1 until interrupted.\n");
    }

    /**
     * SPEC 8.8: apply started while its own database is unreachable (a closed port in front of it)
     * waits, logging the outage once, and applies once the database is reachable; stopped, it exits 0.
     */
    @Test
    void applyWaitsForItsDatabase() throws Exception {
        twoNodes(Map.of("repl.apply", "false"));
        String url = cluster.url(0);
        java.util.regex.Matcher hostPort = java.util.regex.Pattern.compile("//([^:/]+):(\\d+)/").matcher(url);
        assertThat(hostPort.find()).as(url).isTrue();
        try (LogCapture log = LogCapture.start();
                TcpProxy proxy = new TcpProxy(hostPort.group(1), Integer.parseInt(hostPort.group(2)))) {
            proxy.stop(); // connections refused
            String proxied = hostPort.replaceFirst("//127.0.0.1:" + proxy.port() + "/");
            CompletableFuture<Integer> apply = CompletableFuture.supplyAsync(() -> Main.run(
                    new String[] {"apply", "--url", proxied}, System.out, System.err));
            cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
            Thread.sleep(3000);
            assertThat(apply).as("apply waits for its database").isNotDone();
            assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(4400);
            String stopped = "starting the apply side of n1 stopped, retrying with backoff";
            assertThat(log.text().split(stopped, -1)).as("the outage is logged once").hasSize(2);

            proxy.start();
            long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
            while (cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200") != 5000) {
                assertThat(System.nanoTime()).as("applied once the database is up").isLessThan(deadline);
                Thread.sleep(50);
            }
            assertThat(log.text()).contains("starting the apply side of n1 again after");
            io.jdbcrepl.admin.Repl.shutdown(); // stops the inbound server the command runs
            assertThat(apply.get(30, TimeUnit.SECONDS)).isZero();
        }
    }

    /** A configuration that cannot work is not an outage: apply exits at once with its SQLState. */
    @Test
    void applyWithWrongCredentialsOrAnUnknownDatabaseExitsAtOnce() throws Exception {
        twoNodes(Map.of("repl.apply", "false"));
        String url = cluster.url(0);
        String database = cluster.db(0).name();
        Run badUser = cli("apply", "--url", url, "--user", "no_such_role_7f3a");
        assertThat(badUser.exit()).as(badUser.err()).isEqualTo(1);
        assertThat(badUser.err()).startsWith("jdbc-repl: apply failed:").endsWith("(SQLState 28000)\n");
        Run badDatabase = cli("apply", "--url", url.replace("/" + database + "?", "/" + database + "_missing?"));
        assertThat(badDatabase.exit()).as(badDatabase.err()).isEqualTo(1);
        assertThat(badDatabase.err()).startsWith("jdbc-repl: apply failed:").endsWith("(SQLState 3D000)\n");
    }

    /**
     * {@code status --watch} in a JVM of its own (the shaded jar), its output redirected to a file:
     * refreshes after a blank line, each with its time, no ANSI codes; Ctrl-C (SIGINT) ends it with
     * exit code 0. Where this JVM was started with SIGINT ignored (a background job), the child
     * inherits that and SIGTERM stands in for it: both end the watch the same way.
     */
    @Test
    void statusWatchInAProcessOfItsOwnExitsZeroOnCtrlC() throws Exception {
        Path output = Files.createTempFile("cli-watch", ".txt");
        String h2 = Path.of(org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-cp", System.getProperty("repl.driverJar") + java.io.File.pathSeparator + h2, "io.jdbcrepl.cli.Main",
                "status", "--url", "jdbc:repl:h2:mem:watch;DB_CLOSE_DELAY=-1?repl.node=alone", "--watch", "1")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90); // a JVM starting on a busy machine
            while (Files.readString(output).split("Node alone", -1).length < 3) {
                assertThat(System.nanoTime()).as("two refreshes; so far: %s", Files.readString(output)).isLessThan(deadline);
                assertThat(process.isAlive()).as("the watch runs; it printed: %s", Files.readString(output)).isTrue();
                Thread.sleep(100);
            }
            String signal = sigintIgnored() ? "-TERM" : "-INT";
            assertThat(new ProcessBuilder("kill", signal, Long.toString(process.pid())).start().waitFor()).isZero();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("ended by kill " + signal).isTrue();
            String text = Files.readString(output);
            assertThat(process.exitValue()).as("exit code after kill %s; it printed:%n%s", signal, text).isZero();
            assertThat(text).startsWith("At ").contains(", every 1s until interrupted:\nNode alone\n")
                    .contains("\n\nAt ").doesNotContain("\033");
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(output);
        }
    }

    /** Whether this process ignores SIGINT (bit 2 of SigIgn in /proc/self/status), which its children inherit. */
    private static boolean sigintIgnored() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 0b10) != 0;
        }
        return false;
    }

    /** A configuration error: exit code 2, as the README says. */
    @Test
    void aUrlWithoutANodeFailsInOneLine() {
        for (String command : List.of("install", "status", "wait", "apply")) {
            Run run = cli(command, "--url", "jdbc:repl:h2:mem:cli_no_node");
            assertThat(run.exit()).as(command).isEqualTo(2);
            assertThat(run.err()).as(command).isEqualTo("jdbc-repl: " + command + " failed: the URL names no node:"
                    + " add repl.node=<name> to its query string (SQLState 22023)\n");
        }
    }
}
