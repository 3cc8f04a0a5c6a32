package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The version of the driver's tables ({@code repl_version}): recorded by install, read when a node
 * is first connected in a JVM; tables of an older driver are brought up to it, newer ones refused.
 * A node is kept per configuration in a JVM, so each step below connects with a configuration the
 * JVM has not seen yet, as a restarted application would.
 */
class SchemaVersionIT extends ClusterTest {

    private static final int CURRENT = 5;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void aFreshInstallRecordsTheVersion(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "ver_fresh");
        db.openRepl(Map.of("repl.node", "n1")).close();
        assertThat(recorded(db)).isEqualTo(CURRENT);
        assertThat(cli(db, "install", "--url", db.replUrl(Map.of("repl.node", "n1", "repl.apply", "false")))).as(out).isZero();
        assertThat(recorded(db)).as("installing again").isEqualTo(CURRENT);
    }

    /** Tables as the driver made them before versions were recorded: brought up to the current version on connect. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void anOlderInstallIsUpgradedOnConnect(Vendor vendor) throws Exception {
        TestDatabase db = unversionedInstall(vendor, "ver_old");

        try (Connection c = db.openRepl(Map.of("repl.node", "n1")); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE note (id INT PRIMARY KEY, body VARCHAR(20))");
            s.executeUpdate("INSERT INTO note VALUES (1, 'after')");
        }
        assertThat(recorded(db)).isEqualTo(CURRENT);
        assertNewColumnsThere(db);
        assertThat(count(db, "SELECT count(*) FROM repl_log WHERE command_type = 'INSERT'")).isEqualTo(1);
    }

    /** With repl.install=none an older install is refused naming both versions, until install upgrades it. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void anOlderInstallWithInstallNoneIsRefusedUntilTheInstallCommand(Vendor vendor) throws Exception {
        TestDatabase db = unversionedInstall(vendor, "ver_none");

        assertThatThrownBy(() -> db.openRepl(Map.of("repl.node", "n1", "repl.install", "none")).close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55000"))
                .hasMessageContaining("are at version 1 (no version recorded")
                .hasMessageContaining("older than this driver's version " + CURRENT + ", and repl.install=none")
                .hasMessageContaining("install command");
        assertThat(recorded(db)).as("none changes nothing").isNull();

        // the same URL: install installs whatever repl.install says
        String url = db.replUrl(Map.of("repl.node", "n1", "repl.install", "none", "repl.apply", "false"));
        assertThat(cli(db, "install", "--url", url)).as(out).isZero();
        assertThat(recorded(db)).isEqualTo(CURRENT);
        assertNewColumnsThere(db);
        db.openRepl(Map.of("repl.node", "n1", "repl.install", "none")).close();
    }

    /** Tables a later driver upgraded: this driver would misread them, so connect and install refuse, naming the versions. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void aNewerVersionIsRefused(Vendor vendor) throws Exception {
        TestDatabase db = installed(vendor, "ver_new");
        raw(db, "UPDATE repl_version SET version = " + (CURRENT + 1));

        String message = "are at version " + (CURRENT + 1) + ", newer than this driver understands (version " + CURRENT + ")";
        assertThatThrownBy(() -> db.openRepl(Map.of("repl.node", "n1")).close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55000"))
                .hasMessageContaining(message);
        assertThat(cli(db, "install", "--url", db.replUrl(Map.of("repl.node", "n1")))).isEqualTo(1);
        assertThat(out).contains(message);
        assertThat(recorded(db)).isEqualTo(CURRENT + 1);
    }

    /** A database with the driver's tables installed by a connection (of a configuration later ones do not repeat). */
    private TestDatabase installed(Vendor vendor, String label) throws SQLException {
        TestDatabase db = databases.create(vendor, label);
        db.openRepl(Map.of("repl.node", "n1", "repl.apply", "false")).close();
        return db;
    }

    /** The tables as the driver made them before repl_version: without the columns added since the first release. */
    private TestDatabase unversionedInstall(Vendor vendor, String label) throws SQLException {
        TestDatabase db = installed(vendor, label);
        raw(db, "ALTER TABLE repl_log DROP COLUMN signature");
        raw(db, "ALTER TABLE repl_error_lcr DROP COLUMN signature");
        raw(db, "ALTER TABLE repl_progress DROP COLUMN subscribed");
        raw(db, "ALTER TABLE repl_progress DROP COLUMN rewound");
        raw(db, "DROP TABLE repl_version");
        return db;
    }

    private static void assertNewColumnsThere(TestDatabase db) throws SQLException {
        raw(db, "SELECT signature FROM repl_log WHERE 1 = 0");
        raw(db, "SELECT signature FROM repl_error_lcr WHERE 1 = 0");
        raw(db, "SELECT subscribed, rewound FROM repl_progress WHERE 1 = 0");
    }

    /** The recorded version, or null without repl_version. */
    private static Integer recorded(TestDatabase db) {
        try {
            return count(db, "SELECT version FROM repl_version");
        } catch (SQLException noTable) {
            return null;
        }
    }

    private static int count(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(db.driverTables(sql))) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void raw(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute(db.driverTables(sql));
        }
    }

    private String out;

    private int cli(TestDatabase db, String... args) {
        String[] withUser = Arrays.copyOf(args, args.length + 2);
        withUser[args.length] = "--user";
        withUser[args.length + 1] = db.user();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code = Main.run(withUser, sink, sink);
        out = bytes.toString(StandardCharsets.UTF_8);
        return code;
    }
}
