package io.jdbcrepl.it.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.verify.TableVerifier;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * UUID, JSON and binary columns replicated among PostgreSQL ({@code uuid}, {@code jsonb},
 * {@code bytea}), MariaDB ({@code UUID}, {@code JSON}, {@code VARBINARY}) and H2 ({@code UUID},
 * {@code JSON}, {@code VARBINARY}): inserted and updated on each node, every node ends with the
 * same values by meaning (the JSON document, the UUID, the bytes).
 */
class JsonUuidBinaryAcrossVendorsIT extends ClusterTest {

    private static List<String> ddl(Vendor v) {
        return List.of(switch (v) {
            case POSTGRESQL -> "CREATE TABLE doc (id int PRIMARY KEY, ref uuid, body jsonb, data bytea, flag boolean)";
            case H2 -> "CREATE TABLE doc (id INT PRIMARY KEY, ref UUID, body JSON, data VARBINARY(64), flag BOOLEAN)";
            default -> "CREATE TABLE doc (id INT PRIMARY KEY, ref UUID, body JSON, data VARBINARY(64), flag BOOLEAN)";
        });
    }

    private static String jsonParameter(Vendor v) {
        return switch (v) {
            case POSTGRESQL -> "CAST(? AS jsonb)";
            case H2 -> "?"; // bound as UTF-8 bytes, which H2 parses as JSON (a string would become a JSON string)
            default -> "?";
        };
    }

    @Test
    void postgresMariaDbAndH2AgreeOnEveryValue() throws Exception {
        cluster = new Cluster(databases.nodes("typesx", Vendor.POSTGRESQL, Vendor.MARIADB, Vendor.H2));
        cluster.ddl(JsonUuidBinaryAcrossVendorsIT::ddl);
        List<UUID> refs = new ArrayList<>();
        for (int i = 0; i < cluster.size(); i++) {
            UUID ref = UUID.randomUUID();
            refs.add(ref);
            Vendor v = cluster.db(i).vendor();
            try (Connection c = cluster.open(i); PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO doc (id, ref, body, data, flag) VALUES (?, ?, " + jsonParameter(v) + ", ?, ?)")) {
                ps.setInt(1, i + 1);
                ps.setObject(2, v == Vendor.MARIADB ? ref.toString() : ref);
                json(ps, 3, v, "{\"node\": " + (i + 1) + ", \"tags\": [\"a\", \"é\"], \"nested\": {\"x\": 1.50, \"y\": null}}");
                ps.setBytes(4, new byte[] {0, (byte) i, (byte) 0xff, 10, 13});
                ps.setBoolean(5, i % 2 == 0);
                ps.executeUpdate();
            }
        }
        cluster.waitForAll();
        // each node changes another node's row: the JSON, the bytes and the flag
        for (int i = 0; i < cluster.size(); i++) {
            Vendor v = cluster.db(i).vendor();
            int row = (i + 1) % cluster.size() + 1;
            try (Connection c = cluster.open(i); PreparedStatement ps = c.prepareStatement(
                    "UPDATE doc SET body = " + jsonParameter(v) + ", data = ?, flag = ? WHERE id = ?")) {
                json(ps, 1, v, "{\"updated_by\": " + (i + 1) + ", \"list\": [1, 2, 3]}");
                ps.setBytes(2, new byte[] {(byte) (0x80 + i)});
                ps.setBoolean(3, true);
                ps.setInt(4, row);
                ps.executeUpdate();
            }
        }
        cluster.waitForAll();

        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as("error queue of " + Cluster.name(i)).isZero();
        }
        for (int i = 0; i < cluster.size(); i++) {
            for (int row = 1; row <= cluster.size(); row++) {
                int updater = (row + cluster.size() - 2) % cluster.size(); // the node that updated this row
                Values values = values(cluster.db(i), row);
                assertThat(values.ref()).as("ref of %d at %s", row, Cluster.name(i)).isEqualTo(refs.get(row - 1).toString());
                assertThat(Json.read(values.body())).as("body of %d at %s", row, Cluster.name(i))
                        .isEqualTo(Json.read("{\"updated_by\": " + (updater + 1) + ", \"list\": [1, 2, 3]}"));
                assertThat(values.data()).as("data of %d at %s", row, Cluster.name(i))
                        .isEqualTo(HexFormat.of().formatHex(new byte[] {(byte) (0x80 + updater)}));
                assertThat(values.flag()).isTrue();
            }
        }
        List<TableVerifier.Side> sides = new ArrayList<>();
        List<Connection> open = new ArrayList<>();
        try {
            for (int i = 0; i < cluster.size(); i++) {
                Connection c = cluster.db(i).openRaw();
                open.add(c);
                sides.add(new TableVerifier.Side(Cluster.name(i), c,
                        Dialect.forUrl(cluster.db(i).rawUrl())));
            }
            TableVerifier.Report report = new TableVerifier(10).compare(sides, "doc");
            assertThat(report.differences()).as("differences").isEmpty();
        } finally {
            for (Connection c : open) c.close();
        }
    }

    private static void json(PreparedStatement ps, int index, Vendor v, String json) throws SQLException {
        if (v == Vendor.H2) ps.setBytes(index, json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        else ps.setString(index, json);
    }

    record Values(String ref, String body, String data, boolean flag) {
    }

    private static Values values(TestDatabase db, int id) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT ref, body, data, flag FROM doc WHERE id = " + id)) {
            assertThat(rs.next()).as("row %d at %s", id, db.name()).isTrue();
            Object ref = rs.getObject(1);
            return new Values(ref.toString().toLowerCase(Locale.ROOT), rs.getString(2), HexFormat.of().formatHex(rs.getBytes(3)),
                    rs.getBoolean(4));
        }
    }
}
