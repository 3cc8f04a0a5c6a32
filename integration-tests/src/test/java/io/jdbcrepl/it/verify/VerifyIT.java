package io.jdbcrepl.it.verify;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.verify.TableVerifier;
import io.jdbcrepl.verify.TableVerifier.Difference;
import io.jdbcrepl.verify.TableVerifier.Kind;
import io.jdbcrepl.verify.TableVerifier.Report;
import io.jdbcrepl.verify.TableVerifier.Side;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * verify (SPEC 7): a table compared across nodes by key finds a changed row, a missing row and an
 * extra row, on each vendor and across vendors, and agrees on tables that hold the same values
 * however each database writes them.
 */
class VerifyIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perTest();

    /** MariaDB's timestamp keeps whole seconds and updates itself: datetime(6) is its timestamp(6). */
    private static String table(Vendor v) {
        return "CREATE TABLE item (id int PRIMARY KEY, name varchar(40), price decimal(10,2), at "
                + (v.isMariaDbServer() ? "datetime(6)" : "timestamp(6)") + ", ok boolean, code varchar(10))";
    }
    private static final String ROWS = "INSERT INTO item VALUES (1, 'a', 1.50, TIMESTAMP '2024-01-02 03:04:05.123456', true, 'X'),"
            + " (2, 'b', NULL, NULL, false, 'y'), (3, 'Zürich', 10, TIMESTAMP '2024-02-29 00:00:00', true, NULL),"
            + " (10, 'ten', 0.10, NULL, NULL, 'a')";

    private static Dialect dialect(Vendor v) {
        return switch (v.server()) {
            case POSTGRESQL -> Dialect.named("postgresql");
            case MARIADB -> Dialect.named("mariadb");
            case NONE -> Dialect.named("h2");
        };
    }

    private record Node(String name, TestDatabase db, Connection connection) {
        Side side() {
            return new Side(name, connection, dialect(db.vendor()));
        }

        void exec(String... sql) throws SQLException {
            try (Statement s = connection.createStatement()) {
                for (String q : sql) s.execute(q);
            }
        }
    }

    private List<Node> nodes(Vendor... vendors) throws SQLException {
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < vendors.length; i++) {
            TestDatabase db = DATABASES.create(vendors[i], "verify");
            Node n = new Node("n" + (i + 1), db, db.openRaw());
            n.exec(table(vendors[i]), ROWS);
            out.add(n);
        }
        return out;
    }

    private static Report verify(List<Node> nodes) throws SQLException {
        return new TableVerifier(100).compare(nodes.stream().map(Node::side).toList(), "item");
    }

    private static void close(List<Node> nodes) throws SQLException {
        for (Node n : nodes) n.connection().close();
    }

    @ForEachVendor
    void findsChangedMissingAndExtraRows(Vendor vendor) throws Exception {
        List<Node> nodes = nodes(vendor, vendor, vendor);
        Report same = verify(nodes);
        assertThat(same.agree()).isTrue();
        assertThat(same.differences()).isEmpty();
        assertThat(same.nodes()).extracting(TableVerifier.NodeSummary::rows).containsOnly(4L);
        assertThat(same.nodes()).extracting(TableVerifier.NodeSummary::checksum).containsOnly(same.nodes().get(0).checksum());

        nodes.get(1).exec("UPDATE item SET price = 1.51 WHERE id = 1");       // changed on n2
        nodes.get(2).exec("DELETE FROM item WHERE id = 2");                   // missing on n3
        nodes.get(1).exec("INSERT INTO item VALUES (7, 'extra', 1, NULL, NULL, NULL)"); // extra on n2
        Report report = verify(nodes);
        close(nodes);

        assertThat(report.agree()).isFalse();
        assertThat(report.differingKeys()).isEqualTo(3);
        String price = vendor == Vendor.H2 ? "PRICE" : "price"; // as each database stores the name
        assertThat(report.differences()).containsExactly(
                new Difference(List.of("1"), Kind.DIFFERENT, List.of("n2"), List.of(price)),
                new Difference(List.of("2"), Kind.MISSING, List.of("n3"), List.of()),
                new Difference(List.of("7"), Kind.MISSING, List.of("n1", "n3"), List.of()));
        assertThat(report.nodes()).extracting(TableVerifier.NodeSummary::rows).containsExactly(4L, 5L, 3L);
    }

    @Test
    void acrossVendorsTheSameValuesAgree() throws Exception {
        List<Node> nodes = nodes(Vendor.POSTGRESQL, Vendor.MARIADB, Vendor.H2);
        Report same = verify(nodes);
        assertThat(same.differences()).isEmpty();
        assertThat(same.nodes()).extracting(TableVerifier.NodeSummary::checksum)
                .containsOnly(same.nodes().get(0).checksum());

        nodes.get(1).exec("UPDATE item SET name = 'zurich' WHERE id = 3"); // MariaDB's collation would call these equal
        nodes.get(2).exec("UPDATE item SET at = TIMESTAMP '2024-01-02 03:04:05.123457' WHERE id = 1");
        Report report = verify(nodes);
        close(nodes);
        assertThat(report.differences()).containsExactly(
                new Difference(List.of("1"), Kind.DIFFERENT, List.of("n3"), List.of("at")),
                new Difference(List.of("3"), Kind.DIFFERENT, List.of("n2"), List.of("name")));
    }

    @Test
    void stringKeysMergeInTheSameOrderOnEveryVendor() throws Exception {
        List<Node> nodes = new ArrayList<>();
        for (Vendor v : List.of(Vendor.POSTGRESQL, Vendor.MARIADB, Vendor.H2)) {
            TestDatabase db = DATABASES.create(v, "verifykeys");
            Node n = new Node(v.name().toLowerCase(), db, db.openRaw());
            n.exec("CREATE TABLE tag (k varchar(20) PRIMARY KEY, v int)",
                    "INSERT INTO tag VALUES ('B', 1), ('a', 2), ('_x', 3), ('Ä', 4), ('b', 5), ('10', 6), ('9', 7)");
            nodes.add(n);
        }
        nodes.get(0).exec("DELETE FROM tag WHERE k = 'a'");
        Report report = new TableVerifier(100).compare(nodes.stream().map(Node::side).toList(), "tag");
        close(nodes);
        assertThat(report.differences()).containsExactly(
                new Difference(List.of("a"), Kind.MISSING, List.of("postgresql"), List.of()));
        assertThat(report.nodes()).extracting(TableVerifier.NodeSummary::rows).containsExactly(6L, 7L, 7L);
    }

    @Test
    void listsUpToTheLimitAndCountsAll() throws Exception {
        List<Node> nodes = nodes(Vendor.H2, Vendor.H2);
        nodes.get(1).exec("DELETE FROM item");
        Report report = new TableVerifier(2).compare(nodes.stream().map(Node::side).toList(), "item");
        close(nodes);
        assertThat(report.differences()).hasSize(2);
        assertThat(report.differingKeys()).isEqualTo(4);
    }

    @Test
    void badInputIsAClearError() throws Exception {
        List<Node> nodes = nodes(Vendor.POSTGRESQL, Vendor.H2);
        List<Side> sides = nodes.stream().map(Node::side).toList();
        assertThatThrownBy(() -> new TableVerifier(10).compare(sides, "nosuch"))
                .isInstanceOf(SQLException.class).hasMessageContaining("nosuch").hasMessageContaining("n1")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42P01");
        nodes.get(1).exec("ALTER TABLE item ADD COLUMN extra int");
        assertThatThrownBy(() -> new TableVerifier(10).compare(sides, "item"))
                .isInstanceOf(SQLException.class).hasMessageContaining("EXTRA").hasMessageContaining("n2")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42703");
        assertThatThrownBy(() -> new TableVerifier(10).compare(sides.subList(0, 1), "item"))
                .isInstanceOf(SQLException.class).hasMessageContaining("two nodes");
        close(nodes);
    }
}
