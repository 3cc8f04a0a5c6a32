package io.jdbcrepl.it;

import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Malformed URLs and repl.* values (SPEC 2): each fails {@code connect} with an SQLException
 * whose SQLState says what is wrong (42704 unknown key, 22023 bad value, 08001 no usable URL or
 * driver) and whose message names the key and the value; no password shows in any message or
 * log; and no session is left open on the server.
 */
class BadInputIT {

    private static final String SECRET = "S3cr3t-Pw-41";
    private static final String UNKNOWN_KEY = "42704";
    private static final String BAD_VALUE = "22023";
    private static final String NO_CONNECTION = "08001";

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    @TempDir
    static Path files;

    /** One malformed input: how to build the attempt, and what the failure must say. */
    record BadInput(String name, String sqlState, List<String> mentions, Function<TestDatabase, Attempt> attempt) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A connect call: URL and Properties (the database's credentials are added). */
    record Attempt(String url, Properties properties) {
    }

    static Stream<Arguments> cases() {
        List<BadInput> inputs = List.of(
                // unknown keys, from each source
                inUrl("unknown key in the URL", UNKNOWN_KEY, List.of("repl.foo"), "repl.foo", "1"),
                inProperties("unknown key in the Properties", UNKNOWN_KEY, List.of("repl.bogus"), "repl.bogus", "x"),
                new BadInput("unknown key in a classpath: config file", UNKNOWN_KEY, List.of("repl.nope"),
                        db -> new Attempt(db.replUrl(Map.of("repl.config", "classpath:repl-it-unknown-key.properties")),
                                new Properties())),
                new BadInput("unknown key in a file: config file", UNKNOWN_KEY, List.of("repl.nothere"),
                        db -> new Attempt(db.replUrl(Map.of("repl.config", "file:" + configFile("repl.nothere=1"))),
                                new Properties())),
                // bad values of plain keys
                inUrl("boolean that is not true/false", BAD_VALUE, List.of("repl.apply", "yes"), "repl.apply", "yes"),
                inUrl("negative batch size", BAD_VALUE, List.of("repl.apply.batch", "-1"), "repl.apply.batch", "-1"),
                inProperties("batch size that is no number", BAD_VALUE, List.of("repl.apply.batch", "ten"),
                        "repl.apply.batch", "ten"),
                inUrl("duration that is a word", BAD_VALUE, List.of("repl.apply.poll", "fast"), "repl.apply.poll", "fast"),
                inUrl("negative duration", BAD_VALUE, List.of("repl.fk.retry", "-5s"), "repl.fk.retry", "-5s"),
                inUrl("retention forever", BAD_VALUE, List.of("repl.retention", "forever"), "repl.retention", "forever"),
                inUrl("install mode maybe", BAD_VALUE, List.of("repl.install", "maybe"), "repl.install", "maybe"),
                inUrl("unsupported mode unknown", BAD_VALUE, List.of("repl.unsupported", "skipit"),
                        "repl.unsupported", "skipit"),
                inUrl("supplemental SOME", BAD_VALUE, List.of("repl.supplemental", "SOME"), "repl.supplemental", "SOME"),
                inUrl("log group always=yes", BAD_VALUE, List.of("repl.loggroup.emp.g1.always", "yes"),
                        "repl.loggroup.emp.g1", "salary", "repl.loggroup.emp.g1.always", "yes"),
                inUrl("bad %-escape in a value", BAD_VALUE, List.of("repl.tables"), "repl.tables", null),
                inUrl("key given twice in the URL", BAD_VALUE, List.of("repl.install"), "repl.install", "auto",
                        "repl.install", "none"),
                // handlers (SPEC 5.3)
                inUrl("unknown handler type", BAD_VALUE, List.of("repl.handler.h.type", "BOGUS"),
                        "repl.handler.h.table", "emp", "repl.handler.h.type", "BOGUS"),
                inUrl("resolution column outside the column list", BAD_VALUE,
                        List.of("repl.handler.h.resolution", "updated_at"),
                        "repl.handler.h.table", "emp", "repl.handler.h.type", "MAXIMUM",
                        "repl.handler.h.columns", "salary,bonus", "repl.handler.h.resolution", "updated_at"),
                inUrl("MAXIMUM without resolution column", BAD_VALUE, List.of("repl.handler.h.resolution", "MAXIMUM"),
                        "repl.handler.h.table", "emp", "repl.handler.h.type", "MAXIMUM", "repl.handler.h.columns", "salary"),
                inUrl("same column in two handler lists", BAD_VALUE, List.of("bonus", "first_list", "second_list"),
                        "repl.handler.first_list.table", "emp", "repl.handler.first_list.type", "OVERWRITE",
                        "repl.handler.first_list.columns", "salary,bonus",
                        "repl.handler.second_list.table", "emp", "repl.handler.second_list.type", "IGNORE",
                        "repl.handler.second_list.columns", "bonus,commission"),
                inUrl("DELETE handler with a column list", BAD_VALUE, List.of("repl.handler.h.columns", "salary"),
                        "repl.handler.h.table", "emp", "repl.handler.h.type", "IGNORE",
                        "repl.handler.h.operation", "DELETE", "repl.handler.h.columns", "salary"),
                inUrl("OVERWRITE for DELETE/ROW_MISSING", BAD_VALUE, List.of("repl.handler.h.type", "OVERWRITE"),
                        "repl.handler.h.table", "emp", "repl.handler.h.type", "OVERWRITE",
                        "repl.handler.h.operation", "DELETE", "repl.handler.h.conflict", "ROW_MISSING"),
                // peers
                inUrl("peer url for a peer not in repl.peers", BAD_VALUE, List.of("repl.peer.x.url", "repl.peers"),
                        "repl.node", "a", "repl.peers", "b", "repl.peer.b.url", "jdbc:h2:mem:peer_b",
                        "repl.peer.x.url", "jdbc:h2:mem:peer_x"),
                inUrl("peers without a node name", BAD_VALUE, List.of("repl.peers", "repl.node"),
                        "repl.peers", "b", "repl.peer.b.url", "jdbc:h2:mem:peer_b"),
                inUrl("peer without its url", BAD_VALUE, List.of("repl.peer.b.url"), "repl.node", "a", "repl.peers", "b"),
                // files and classes that are not there
                inUrl("config file that does not exist", BAD_VALUE, List.of("repl.config", "/does/not/exist"),
                        "repl.config", "file:/does/not/exist"),
                inUrl("config resource that does not exist", BAD_VALUE, List.of("repl.config", "no/such/repl.properties"),
                        "repl.config", "classpath:no/such/repl.properties"),
                inUrl("config location of an unknown kind", BAD_VALUE, List.of("repl.config", "ftp://x/repl.properties"),
                        "repl.config", "ftp://x/repl.properties"),
                inUrl("delegate driver class that does not exist", BAD_VALUE, List.of("repl.driver", "com.example.Nope"),
                        "repl.driver", "com.example.Nope"),
                inUrl("delegate driver class that is no driver", BAD_VALUE, List.of("repl.driver", "java.lang.String"),
                        "repl.driver", "java.lang.String"),
                // URLs
                new BadInput("jdbc:repl: without a subprotocol", NO_CONNECTION, List.of("jdbc:repl:"),
                        db -> new Attempt("jdbc:repl:", new Properties())),
                new BadInput("jdbc:repl: with a subprotocol no driver takes", NO_CONNECTION, List.of("nosuchdb"),
                        db -> new Attempt("jdbc:repl:nosuchdb://localhost/x", new Properties())),
                // passwords never appear
                new BadInput("password in the URL, unknown key", UNKNOWN_KEY, List.of("repl.foo"),
                        db -> new Attempt(TestDatabase.withQuery(db.replUrl(),
                                ordered("password", SECRET, "repl.foo", "1")), new Properties())),
                new BadInput("password in the URL, bad %-escape", BAD_VALUE, List.of("repl.tables"),
                        db -> new Attempt(TestDatabase.withQuery(db.replUrl(), ordered("password", SECRET))
                                + "&repl.tables=%ZZ", new Properties())),
                new BadInput("user:password@ in a URL no driver takes", NO_CONNECTION, List.of("nosuchdb"),
                        db -> new Attempt("jdbc:repl:nosuchdb://admin:" + SECRET + "@localhost/x?password=" + SECRET,
                                new Properties())),
                new BadInput("user:pa@ss@ (a password holding '@') in a URL no driver takes", NO_CONNECTION,
                        List.of("nosuchdb"), db -> new Attempt("jdbc:repl:nosuchdb://admin:pa@" + SECRET + "@localhost/x",
                                new Properties())),
                new BadInput("address=(host=…)(password=…) in a URL no driver takes", NO_CONNECTION, List.of("nosuchdb"),
                        db -> new Attempt("jdbc:repl:nosuchdb://address=(host=localhost)(password=" + SECRET
                                + ")(user=admin)/x", new Properties())),
                new BadInput("(host=…,password=…) in a URL no driver takes", NO_CONNECTION, List.of("nosuchdb"),
                        db -> new Attempt("jdbc:repl:nosuchdb://(host=localhost,password=" + SECRET + ",user=admin)/x",
                                new Properties())),
                new BadInput("peer URL given as jdbc:repl: with an address=(…)(password=…)", BAD_VALUE,
                        List.of("repl.peer.b.url"), db -> new Attempt(db.replUrl(), properties("repl.node", "a",
                                "repl.peers", "b", "repl.peer.b.url",
                                "jdbc:repl:mysql://address=(host=localhost)(password=" + SECRET + ")/x"))),
                new BadInput("config file that is not one (a shadow file)", UNKNOWN_KEY, List.of("repl.config"),
                        db -> new Attempt(db.replUrl(Map.of("repl.config", "file:" + configFile(
                                "root:" + SECRET + ":19000:0:99999:7:::\n"))), new Properties())),
                new BadInput("password in a URL without a subprotocol", NO_CONNECTION, List.of("jdbc:repl:"),
                        db -> new Attempt("jdbc:repl://localhost:5432/x?user=admin&password=" + SECRET, new Properties())),
                new BadInput("peer password for a peer not in repl.peers", BAD_VALUE, List.of("repl.peer.p."),
                        db -> new Attempt(db.replUrl(), properties("repl.peer.p.url", "jdbc:h2:mem:p",
                                "repl.peer.p.password", SECRET))),
                new BadInput("peer password misspelt as a key", UNKNOWN_KEY, List.of("repl.peer.p.pasword"),
                        db -> new Attempt(db.replUrl(), properties("repl.peer.p.pasword", SECRET))),
                new BadInput("peer password in a config file with a bad value", BAD_VALUE, List.of("repl.apply.batch"),
                        db -> new Attempt(db.replUrl(Map.of("repl.config", "file:" + configFile(
                                "repl.node=a\nrepl.peers=p\nrepl.peer.p.url=jdbc:h2:mem:p\nrepl.peer.p.password="
                                        + SECRET + "\nrepl.apply.batch=lots\n"))), new Properties())));
        List<Arguments> out = new ArrayList<>();
        for (Vendor vendor : Vendor.values()) {
            for (BadInput input : inputs) {
                out.add(Arguments.of(vendor, input));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void connectFailsClearlyAndLeavesNothingOpen(Vendor vendor, BadInput input) throws Exception {
        TestDatabase db = DATABASES.shared(vendor, "bad_input");
        int before = db.serverConnections();
        Attempt attempt = input.attempt().apply(db);
        Properties properties = db.credentials();
        properties.putAll(attempt.properties());

        SQLException failure = null;
        String logs;
        try (LogCapture capture = LogCapture.start()) {
            try (Connection unexpected = DriverManager.getConnection(attempt.url(), properties)) {
                fail("connect succeeded for " + input.name() + ": " + unexpected);
            } catch (SQLException e) {
                failure = e;
            }
            logs = capture.text();
        }

        String what = vendor + ", " + input.name() + ": ";
        String everything = describeFully(failure);
        assertThat(failure.getSQLState()).as(what + "SQLState of %s", everything).isEqualTo(input.sqlState());
        for (String mention : input.mentions()) {
            assertThat(failure.getMessage()).as(what + "the message names %s", mention).contains(mention);
        }
        assertThat(everything).as(what + "the exception, its causes and stack trace").doesNotContain(SECRET);
        assertThat(logs).as(what + "what the driver logged").doesNotContain(SECRET);
        assertThat(db.awaitServerConnectionsAtMost(before)).as(what + "sessions on the server after the failed connect")
                .isEqualTo(before);
    }

    @Test
    void replDriverIsRegisteredAndDeclinesOtherUrls() throws Exception {
        // JDBC: connect returns null for a URL the driver does not take; DriverManager then says 08001
        java.sql.Driver driver = DriverManager.getDriver("jdbc:repl:h2:mem:x");
        assertThat(driver.getClass().getName()).isEqualTo("io.jdbcrepl.ReplDriver");
        assertThat(driver.acceptsURL("jdbc:postgresql://localhost/x")).isFalse();
        assertThat(driver.connect("jdbc:postgresql://localhost/x", new Properties())).isNull();
        assertThat(driver.acceptsURL("jdbc:repl:h2:mem:x")).isTrue();
    }

    // ------------------------------------------------------------------ case builders

    /** A case whose repl.* keys (and values, pairwise) go in the URL; a null value is written {@code %ZZ}. */
    private static BadInput inUrl(String name, String sqlState, List<String> mentions, String... keyValues) {
        return new BadInput(name, sqlState, mentions, db -> {
            Map<String, String> encoded = new LinkedHashMap<>();
            List<String> broken = new ArrayList<>();
            for (int i = 0; i < keyValues.length; i += 2) {
                if (keyValues[i + 1] == null) {
                    broken.add(keyValues[i] + "=%ZZ");
                } else if (encoded.containsKey(keyValues[i])) {
                    broken.add(keyValues[i] + "=" + keyValues[i + 1]); // the same key again
                } else {
                    encoded.put(keyValues[i], keyValues[i + 1]);
                }
            }
            String url = db.replUrl(encoded);
            for (String raw : broken) {
                url += (url.indexOf('?') < 0 ? "?" : "&") + raw;
            }
            return new Attempt(url, new Properties());
        });
    }

    /** A case whose repl.* keys go in the connect Properties. */
    private static BadInput inProperties(String name, String sqlState, List<String> mentions, String... keyValues) {
        return new BadInput(name, sqlState, mentions, db -> new Attempt(db.replUrl(), properties(keyValues)));
    }

    private static Properties properties(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    private static Path configFile(String contents) {
        try {
            Path file = Files.createTempFile(files, "repl", ".properties");
            Files.writeString(file, contents, StandardCharsets.UTF_8);
            return file;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The exception as a person could see it: toString and stack trace of it, its causes and suppressed ones. */
    private static String describeFully(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        StringBuilder sb = new StringBuilder(out.toString());
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append('\n').append(c);
            Arrays.stream(c.getSuppressed()).forEach(s -> sb.append('\n').append(s));
            if (c instanceof SQLException s) {
                for (SQLException n = s.getNextException(); n != null; n = n.getNextException()) {
                    sb.append('\n').append(n);
                }
            }
        }
        return sb.toString();
    }
}
