package io.jdbcrepl.it.verify;

import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI's verify (SPEC 7): a node and its peers, text and --json, exit 0 when they agree, 1 when not, 2 for a configuration error. */
class VerifyCommandIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perTest();

    record Run(int exit, String out, String err) {
    }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void exec(TestDatabase db, String... sql) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            for (String q : sql) s.execute(q);
        }
    }

    @Test
    void comparesTheNodeWithItsPeers() throws Exception {
        TestDatabase pg = DATABASES.create(Vendor.POSTGRESQL, "verifycli");
        TestDatabase h2 = DATABASES.create(Vendor.H2, "verifycli");
        for (TestDatabase db : List.of(pg, h2)) {
            exec(db, "CREATE TABLE item (id int PRIMARY KEY, name varchar(20), price decimal(8,2))",
                    "INSERT INTO item VALUES (1, 'a', 1.50), (2, 'b', 2), (3, 'c', NULL)");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.node", "pg1");
        p.put("repl.peers", "h2");
        p.putAll(h2.asPeer("h2"));
        p.put("repl.apply", "false");
        String url = pg.replUrl(p);

        Run same = main("verify", "--url", url, "--user", pg.user(), "--table", "item");
        assertThat(same.err()).isEmpty();
        assertThat(same.exit()).isZero();
        assertThat(same.out()).contains("pg1", "h2", "The nodes agree");

        exec(h2, "UPDATE item SET price = 2.01 WHERE id = 2", "DELETE FROM item WHERE id = 3");
        Run differ = main("verify", "--url", url, "--user", pg.user(), "--table", "item");
        assertThat(differ.exit()).isEqualTo(1);
        assertThat(differ.out()).contains("2 keys differ", "id=2: differs on h2 in price", "id=3: missing on h2");

        Run json = main("verify", "--url", url, "--user", pg.user(), "--table", "item", "--json");
        assertThat(json.exit()).isEqualTo(1);
        Map<String, Object> doc = Json.readObject(json.out().trim());
        assertThat(doc.get("agree")).isEqualTo(false);
        assertThat(doc.get("differingKeys").toString()).isEqualTo("2");
        assertThat((List<?>) doc.get("differences")).hasSize(2);
    }

    @Test
    void aNodeWithoutPeersIsAClearError() throws Exception {
        TestDatabase h2 = DATABASES.create(Vendor.H2, "verifycli");
        Run run = main("verify", "--url", h2.replUrl(Map.of("repl.node", "alone")), "--table", "item");
        assertThat(run.exit()).isEqualTo(2); // a configuration error, as a usage error
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err()).contains("alone", "repl.peers");
    }
}
