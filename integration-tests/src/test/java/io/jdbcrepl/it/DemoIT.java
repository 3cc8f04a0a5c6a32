package io.jdbcrepl.it;

import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's first command: {@code java -jar … demo} on embedded H2, as a child process of the
 * built jar (which finds H2 in the {@code lib/} folder beside it), and the same demo on PostgreSQL,
 * on MariaDB and on a mixed trio through {@code --url}. Each must converge (exit 0) with the
 * summary a person reads.
 */
class DemoIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    record Run(int exit, String out, String err) {
    }

    @Test
    void theJarRunsTheDemoOnEmbeddedH2(@TempDir Path dir) throws Exception {
        Path jar = Path.of(System.getProperty("repl.driverJar"));
        Path output = dir.resolve("demo.txt");
        Path errors = dir.resolve("demo.err");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "demo", "--seconds", "4")
                .redirectOutput(output.toFile())
                .redirectError(errors.toFile())
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("java -jar " + jar + " demo --seconds 4 did not end within 120 s");
        }
        String text = Files.readString(output);
        assertThat(process.exitValue()).as("exit code; it printed:%n%s%n%s", text, Files.readString(errors)).isZero();
        assertThat(text).contains("3 nodes (H2, in memory)",
                "The seed's salary example: employee 200 earns 4400 on every node.",
                "after apply: n1 5000, n2 5000, n3 5000",
                "Transactions committed by the applications:",
                "Conflicts met while applying, by table, kind and handler (all nodes):",
                "demo_counters   update     UPDATE ROW_EXISTS hits_delta",
                "Replication lag (commit on one node until visible on another,",
                "every increment counted once",
                "Converged: every table is identical on every node");
        for (String table : List.of("demo_employees", "demo_counters", "demo_orders", "demo_badges", "demo_heartbeat")) {
            assertThat(text).containsPattern("(?m)^  " + table + " .* identical$");
        }
        assertThat(text).doesNotContain("DIFFER", "NOT CONVERGED");
    }

    @Test
    void jsonSummaryForScripts() {
        Run run = main("demo", "--nodes", "2", "--seconds", "2", "--json");
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> summary = (Map<String, Object>) Json.read(run.out().trim());
        assertThat(summary.get("converged")).isEqualTo(true);
        assertThat((List<?>) summary.get("nodes")).hasSize(2);
        assertThat((List<?>) summary.get("tables")).hasSize(5)
                .allSatisfy(t -> assertThat(((Map<?, ?>) t).get("agree")).isEqualTo(true));
        @SuppressWarnings("unchecked")
        Map<String, Object> seed = (Map<String, Object>) summary.get("seedExample");
        assertThat(seed.get("ok")).isEqualTo(true);
    }

    @Test
    void onPostgreSql() throws Exception {
        assertConverges(databases.nodes(Vendor.POSTGRESQL, "demo", 3));
    }

    @Test
    void onMariaDb() throws Exception {
        assertConverges(databases.nodes(Vendor.MARIADB, "demo", 3));
    }

    @Test
    void onPostgreSqlMariaDbAndH2Together() throws Exception {
        assertConverges(List.of(databases.create(Vendor.POSTGRESQL, "demo_mixed"),
                databases.create(Vendor.MARIADB, "demo_mixed"), databases.create(Vendor.H2, "demo_mixed")));
    }

    /**
     * Its databases can serve again: twice on the same PostgreSQL databases, then with a MariaDB
     * database as n2, whose PostgreSQL predecessor left its positions in n1's and n3's
     * repl_progress. Each run converges, names each node's database in its header, and ends with
     * status and errors list commands for n1 that work as printed.
     */
    @Test
    void runsAgainOnItsDatabasesAlsoWithAnotherVendorAmongThem() throws Exception {
        List<TestDatabase> pg = databases.nodes(Vendor.POSTGRESQL, "demo_again", 3);
        TestDatabase mariaDb = databases.create(Vendor.MARIADB, "demo_again");
        for (List<TestDatabase> nodes : List.of(pg, pg, List.of(pg.get(0), mariaDb, pg.get(2)))) {
            Run run = assertConverges(nodes);
            for (int i = 0; i < nodes.size(); i++) {
                boolean pgNode = nodes.get(i).vendor() == Vendor.POSTGRESQL;
                assertThat(run.out()).as(run.out()).containsPattern("(?m)^  n" + (i + 1) + " "
                        + (pgNode ? "PostgreSQL" : "MariaDB") + " \\d+\\.\\d+\\S* \\(jdbc:"
                        + (pgNode ? "postgresql" : "mariadb") + "://");
            }
            for (String command : List.of("status", "errors")) {
                String line = run.out().lines().filter(l -> l.contains(" " + command + (command.equals("errors") ? " list" : "")
                        + " --url ")).findFirst().orElseThrow(() -> new AssertionError("no " + command + " command in:\n" + run.out()));
                List<String> words = shellWords(line.trim());
                assertThat(words.subList(0, 2)).containsExactly("java", "-jar");
                Run inspected = main(words.subList(words.indexOf(command), words.size()).toArray(String[]::new));
                assertThat(inspected.exit()).as(line + "\n" + inspected.out() + inspected.err()).isZero();
                if (command.equals("status")) assertThat(inspected.out()).contains("Node n1", "n2", "n3");
            }
        }
    }

    /** The words of a POSIX shell command line with single quotes and backslashes, as a user's shell splits it. */
    private static List<String> shellWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean started = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\'') quoted = false;
                else word.append(c);
            } else if (c == '\'') {
                quoted = true;
                started = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                started = true;
            } else if (Character.isWhitespace(c)) {
                if (started) words.add(word.toString());
                word.setLength(0);
                started = false;
            } else {
                word.append(c);
                started = true;
            }
        }
        if (started) words.add(word.toString());
        return words;
    }

    private static Run assertConverges(List<TestDatabase> nodes) {
        List<String> args = new ArrayList<>(List.of("demo", "--seconds", "4"));
        for (TestDatabase db : nodes) args.addAll(List.of("--url", withCredentials(db)));
        Run run = main(args.toArray(String[]::new));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("after apply: n1 5000, n2 5000, n3 5000", "Converged:")
                .doesNotContain("DIFFER");
        return run;
    }

    /** The node's jdbc:repl: URL carrying its own user, since the nodes' users differ. */
    private static String withCredentials(TestDatabase db) {
        if (db.vendor() == Vendor.H2) return db.replUrl() + ";USER=" + db.user() + ";PASSWORD=" + db.password();
        String url = db.replUrl() + (db.replUrl().contains("?") ? "&" : "?") + "user=" + db.user();
        return db.password().isEmpty() ? url : url + "&password=" + db.password();
    }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
