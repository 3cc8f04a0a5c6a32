package io.jdbcrepl.it.apply;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.verify.TableVerifier;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real client: a Hibernate 6 application behind HikariCP on two nodes ({@code jdbc:repl:} URLs),
 * both writing at once: entities with {@code @Lob byte[]} and {@code @Lob String} (PostgreSQL large
 * objects, MariaDB LONGBLOB/LONGTEXT), updates that replace them, bulk HQL {@code update} and
 * {@code delete}, and an {@code @ElementCollection} List (a table without a primary key). The schema
 * is Hibernate's own ({@code hbm2ddl} create, on each node through its plain URL); after both nodes
 * have applied each other's changes, every table is identical ({@link TableVerifier}).
 */
class HibernateIT extends ClusterTest {

    @Entity(name = "Doc")
    @Table(name = "hib_doc")
    public static class Doc {
        @Id
        Long id;
        String title;
        int revision;
        @Lob
        byte[] content;
        @Lob
        String body;

        public Doc() {
        }

        Doc(long id, String title, byte[] content, String body) {
            this.id = id;
            this.title = title;
            this.content = content;
            this.body = body;
        }
    }

    @Entity(name = "Tagged")
    @Table(name = "hib_tagged")
    public static class Tagged {
        @Id
        Long id;
        String name;
        @ElementCollection(fetch = FetchType.EAGER)
        @CollectionTable(name = "hib_tagged_tags", joinColumns = @JoinColumn(name = "tagged_id"))
        @Column(name = "tag")
        List<String> tags = new ArrayList<>();

        public Tagged() {
        }

        Tagged(long id, String name, List<String> tags) {
            this.id = id;
            this.name = name;
            this.tags = new ArrayList<>(tags);
        }
    }

    /** Rows each node writes, in an id range of its own (node n: n * 100_000 + i). */
    private static final int ROWS = 40;

    private final List<HikariDataSource> pools = new ArrayList<>();
    private final List<SessionFactory> factories = new ArrayList<>();

    @Test
    void postgresLargeObjectsAndBulkHql() throws Exception {
        documents(Vendor.POSTGRESQL, true);
    }

    @Test
    void mariaDbLobsAndBulkHqlUpdate() throws Exception {
        documents(Vendor.MARIADB, false);
    }

    @Test
    void mariaDbBulkHqlDelete() throws Exception {
        documents(Vendor.MARIADB, true);
    }

    @Test
    void postgresElementCollection() throws Exception {
        elementCollection(Vendor.POSTGRESQL);
    }

    @Test
    void mariaDbElementCollection() throws Exception {
        elementCollection(Vendor.MARIADB);
    }

    // ---- the application

    private void documents(Vendor vendor, boolean bulkDelete) throws Exception {
        start(vendor, "hibdoc");
        if (vendor == Vendor.POSTGRESQL) { // Hibernate's @Lob on PostgreSQL: large objects
            assertThat(cluster.count(0, "SELECT count(*) FROM information_schema.columns WHERE table_name = 'hib_doc'"
                    + " AND column_name IN ('content', 'body') AND udt_name = 'oid'")).isEqualTo(2);
        }
        concurrently(node -> {
            SessionFactory sf = factories.get(node);
            long base = (node + 1) * 100_000L;
            for (int i = 0; i < ROWS; i++) {
                long id = base + i;
                int n = i;
                sf.inTransaction(s -> s.persist(new Doc(id, "doc " + id, bytes(n), text(node, n))));
            }
            // replace the large objects of every third row (Hibernate writes new ones)
            for (int i = 0; i < ROWS; i += 3) {
                long id = base + i;
                int n = i;
                sf.inTransaction(s -> {
                    Doc d = s.find(Doc.class, id);
                    d.content = bytes(n + 1000);
                    d.body = "replaced " + text(node, n);
                    d.revision++;
                });
            }
            sf.inTransaction(s -> s.createMutationQuery(
                    "update Doc d set d.title = concat(d.title, ' (bulk)'), d.revision = d.revision + 1"
                            + " where d.id >= :from and d.id < :to and mod(d.id, 2) = 0")
                    .setParameter("from", base).setParameter("to", base + ROWS).executeUpdate());
            if (bulkDelete) {
                sf.inTransaction(s -> s.createMutationQuery("delete from Doc d where d.id >= :from and d.id < :to"
                        + " and mod(d.id, 5) = 0").setParameter("from", base).setParameter("to", base + ROWS)
                        .executeUpdate());
            }
            // one NULL and one empty large object
            sf.inTransaction(s -> {
                Doc d = s.find(Doc.class, base + 1);
                d.content = null;
                d.body = "";
            });
        });
        cluster.waitForAll();
        // each node changes the other's rows (applied ones): new objects for rows it did not create
        concurrently(node -> {
            long other = (2 - node) * 100_000L;
            factories.get(node).inTransaction(s -> {
                Doc d = s.find(Doc.class, other + 2);
                d.content = ("from n" + (node + 1)).getBytes(StandardCharsets.UTF_8);
                d.body = "written by n" + (node + 1) + " é";
            });
        });
        cluster.waitForAll();

        assertIdentical("hib_doc");
        long expected = 2L * (ROWS - (bulkDelete ? ROWS / 5 : 0));
        assertThat(cluster.count(0, "SELECT count(*) FROM hib_doc")).isEqualTo(expected);
        // what Hibernate reads back on the other node is what was written
        factories.get(1).inTransaction(s -> {
            Doc d = s.find(Doc.class, 100_002L);
            assertThat(new String(d.content, StandardCharsets.UTF_8)).isEqualTo("from n2");
            assertThat(d.body).isEqualTo("written by n2 é");
            Doc applied = s.find(Doc.class, 100_007L); // written once by n1, neither replaced nor deleted
            assertThat(applied.content).isEqualTo(bytes(7)).hasSizeGreaterThan(0);
            assertThat(applied.body).isEqualTo(text(0, 7));
            assertThat(s.find(Doc.class, 100_001L).content).isNull();
            assertThat(s.find(Doc.class, 100_001L).body).isEmpty();
        });
    }

    private void elementCollection(Vendor vendor) throws Exception {
        start(vendor, "hibtag");
        concurrently(node -> {
            SessionFactory sf = factories.get(node);
            long base = (node + 1) * 100_000L;
            for (int i = 0; i < ROWS; i++) {
                long id = base + i;
                // duplicates on purpose: a bag keeps them, identical rows of a keyless table
                sf.inTransaction(s -> s.persist(new Tagged(id, "t" + id, List.of("a", "b", "a"))));
            }
            for (int i = 0; i < ROWS; i += 2) {
                long id = base + i;
                sf.inTransaction(s -> s.find(Tagged.class, id).tags.add("n" + (node + 1)));
            }
            for (int i = 0; i < ROWS; i += 7) {
                long id = base + i;
                sf.inTransaction(s -> s.remove(s.find(Tagged.class, id)));
            }
        });
        cluster.waitForAll();
        assertIdentical("hib_tagged");
        assertSameRows("hib_tagged_tags", "tagged_id, tag");
        assertThat(cluster.count(0, "SELECT count(*) FROM hib_tagged_tags")).isGreaterThan(2L * ROWS);
    }

    // ---- the cluster, Hibernate and HikariCP

    private void start(Vendor vendor, String label) throws Exception {
        cluster = new Cluster(databases.nodes(label, vendor, vendor));
        for (int i = 0; i < cluster.size(); i++) {
            // hbm2ddl on each node, through its plain URL (the schema is each node's own)
            try (SessionFactory ddl = configuration(cluster.db(i).rawUrl(), cluster.db(i).user(), cluster.db(i).password())
                    .setProperty(AvailableSettings.HBM2DDL_AUTO, "create").buildSessionFactory()) {
                assertThat(ddl.isOpen()).isTrue();
            }
        }
        cluster.ddl(v -> List.of()); // installs the driver's tables and starts the inbound servers
        for (int i = 0; i < cluster.size(); i++) {
            HikariDataSource pool = cluster.pool(i, 4);
            pools.add(pool);
            Configuration c = new Configuration().addAnnotatedClass(Doc.class).addAnnotatedClass(Tagged.class);
            c.getProperties().put(AvailableSettings.DATASOURCE, pool);
            c.setProperty(AvailableSettings.HBM2DDL_AUTO, "none");
            factories.add(c.buildSessionFactory());
        }
    }

    private static Configuration configuration(String url, String user, String password) {
        Configuration c = new Configuration().addAnnotatedClass(Doc.class).addAnnotatedClass(Tagged.class);
        c.setProperty(AvailableSettings.JAKARTA_JDBC_URL, url);
        c.setProperty(AvailableSettings.JAKARTA_JDBC_USER, user);
        c.setProperty(AvailableSettings.JAKARTA_JDBC_PASSWORD, password == null ? "" : password);
        return c;
    }

    @org.junit.jupiter.api.AfterEach
    void closeApplication() {
        factories.forEach(SessionFactory::close);
        pools.forEach(HikariDataSource::close);
    }

    private interface NodeWork {
        void run(int node) throws Exception;
    }

    /** Both nodes' applications at once; the first failure is rethrown. */
    private void concurrently(NodeWork work) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (int node = 0; node < 2; node++) {
                int n = node;
                done.add(executor.submit(() -> {
                    work.run(n);
                    return null;
                }));
            }
            for (Future<Object> f : done) f.get(5, TimeUnit.MINUTES);
        } finally {
            executor.shutdownNow();
        }
    }

    private static byte[] bytes(int i) {
        byte[] out = new byte[i % 4 == 0 ? 0 : 300 * i + 7]; // some empty, up to ~300 KB
        new Random(i).nextBytes(out);
        return out;
    }

    private static String text(int node, int i) {
        return "node " + (node + 1) + " row " + i + " ünïcode ✓ " + "x".repeat(i * 50);
    }

    // ---- the checks

    private void assertIdentical(String table) throws SQLException {
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as("error queue of " + Cluster.name(i)).isZero();
        }
        TableVerifier.Report report = cluster.verify(table);
        assertThat(report.differences()).as("differences in " + table).isEmpty();
        assertThat(report.nodes()).allSatisfy(n -> assertThat(n.rows()).isPositive());
    }

    /** A table without a key: the same rows, duplicates counted, on every node. */
    private void assertSameRows(String table, String columns) throws SQLException {
        List<List<String>> perNode = new ArrayList<>();
        for (int i = 0; i < cluster.size(); i++) {
            List<String> rows = new ArrayList<>();
            try (Connection c = cluster.db(i).openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT " + columns + " FROM " + table)) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    String[] row = new String[n];
                    for (int col = 0; col < n; col++) row[col] = rs.getString(col + 1);
                    rows.add(Arrays.toString(row));
                }
            }
            rows.sort(null);
            perNode.add(rows);
        }
        assertThat(perNode.get(1)).as(table + " on n2 against n1").isEqualTo(perNode.get(0));
    }
}
