package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPEC 8.8: row values appear in logs only at DEBUG. Every kind of WARN/ERROR/INFO line the
 * driver writes about rows — a conflict resolved, a transaction queued on an unresolved conflict,
 * on a value the local column refuses and on a missing parent after the foreign key retry, a
 * statement not captured — runs here with values holding a distinctive marker: no line at INFO or
 * above carries it, the DEBUG lines do, and the lines above DEBUG still name table and key column.
 */
class LogValuesIT extends ClusterTest {

    private static final String SECRET = "secret-7f3a";

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void rowValuesAreLoggedOnlyAtDebug(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "log_values", 2), Map.of("repl.apply", "false", "repl.fk.retry", "1s",
                "repl.unsupported", "passthrough", // the CALL runs uncaptured, with a WARN
                "repl.handler.kept.table", "resolved", "repl.handler.kept.type", "IGNORE", "repl.handler.kept.columns", "v"));
        String procedure = vendor == Vendor.POSTGRESQL
                ? "CREATE PROCEDURE note(x VARCHAR(40)) LANGUAGE plpgsql AS $$ BEGIN END $$"
                : "CREATE PROCEDURE note(x VARCHAR(40)) BEGIN END";
        cluster.ddl(v -> List.of(
                "CREATE TABLE queued (id VARCHAR(40) PRIMARY KEY, v VARCHAR(40))",
                "CREATE TABLE resolved (id VARCHAR(40) PRIMARY KEY, v VARCHAR(40))",
                "CREATE TABLE parent (id VARCHAR(40) PRIMARY KEY)",
                "CREATE TABLE child (id VARCHAR(40) PRIMARY KEY, parent_id VARCHAR(40) REFERENCES parent (id))",
                "INSERT INTO queued (id, v) VALUES ('" + SECRET + "-q', 'a')",
                "INSERT INTO resolved (id, v) VALUES ('" + SECRET + "-r', 'a')",
                procedure));
        // n1 keeps a number where n2 has text: n2's text cannot be stored at n1
        try (Connection c = cluster.db(0).openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE typed (id INT PRIMARY KEY, n INT)");
        }
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE typed (id INT PRIMARY KEY, n VARCHAR(40))");
            s.execute("INSERT INTO parent (id) VALUES ('" + SECRET + "-p')"); // not captured: n1 never gets it
        }
        cluster.execute(0, "UPDATE queued SET v = '" + SECRET + "-n1' WHERE id = '" + SECRET + "-q'");
        cluster.execute(1, "UPDATE queued SET v = '" + SECRET + "-n2' WHERE id = '" + SECRET + "-q'");
        cluster.execute(0, "UPDATE resolved SET v = '" + SECRET + "-n1' WHERE id = '" + SECRET + "-r'");
        cluster.execute(1, "UPDATE resolved SET v = '" + SECRET + "-n2' WHERE id = '" + SECRET + "-r'");
        cluster.execute(1, "INSERT INTO typed (id, n) VALUES (1, '" + SECRET + "-t')");
        cluster.execute(1, "INSERT INTO child (id, parent_id) VALUES ('" + SECRET + "-c', '" + SECRET + "-p')");

        List<Map.Entry<String, String>> lines;
        try (LogCapture log = LogCapture.withDebug("io.jdbcrepl.apply.Applier", "io.jdbcrepl.apply.PrebuiltHandlers",
                "io.jdbcrepl.capture.session.CaptureSession")) {
            cluster.execute(0, "CALL note('" + SECRET + "-call')"); // passthrough: runs uncaptured, WARN
            cluster.admin(0).startApply();
            cluster.admin(1).startApply();
            cluster.waitForAll();
            lines = log.leveledLines();
        }
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_error")).as("queued, typed and child at n1").isEqualTo(3);
        List<String> above = lines.stream().filter(l -> !l.getKey().equals("DEBUG")).map(Map.Entry::getValue).toList();
        List<String> debug = lines.stream().filter(l -> l.getKey().equals("DEBUG")).map(Map.Entry::getValue).toList();
        assertThat(above).as("lines at INFO and above").noneMatch(l -> l.contains(SECRET));
        assertThat(above).anySatisfy(l -> assertThat(l).contains("moved to the error queue at n1", "queued (key id)"));
        assertThat(above).anySatisfy(l -> assertThat(l).contains("moved to the error queue at n1", "typed (key id)"));
        assertThat(above).anySatisfy(l -> assertThat(l).contains("fails on a foreign key at n1", "child (key id)"));
        assertThat(above).anySatisfy(l -> assertThat(l).contains("Not captured (repl.unsupported=passthrough, node n1)", "CALL"));
        assertThat(debug).anySatisfy(l -> assertThat(l).contains("error queue entry", SECRET + "-n2"));
        assertThat(debug).anySatisfy(l -> assertThat(l).contains("error queue entry", SECRET + "-t"));
        assertThat(debug).anySatisfy(l -> assertThat(l).contains("Not captured", SECRET + "-call"));
    }
}
