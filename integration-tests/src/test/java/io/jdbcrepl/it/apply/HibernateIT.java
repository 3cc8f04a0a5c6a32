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
import jakarta.persistence.Inheritance;
import jakarta.persistence.InheritanceType;
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

    /** A JOINED hierarchy: Hibernate's bulk HQL on it changes several tables in one or several statements. */
    @Entity(name = "Animal")
    @Table(name = "hib_animal")
    @Inheritance(strategy = InheritanceType.JOINED)
    public static class Animal {
        @Id
        Long id;
        String name;
        int age;

        public Animal() {
        }
    }

    @Entity(name = "Dog")
    @Table(name = "hib_dog")
    public static class Dog extends Animal {
        int barks;

        public Dog() {
        }

        Dog(long id, String name, int barks) {
            this.id = id;
            this.name = name;
            this.barks = barks;
        }
    }

    @Entity(name = "Cat")
    @Table(name = "hib_cat")
    public static class Cat extends Animal {
        int lives;

        public Cat() {
        }

        Cat(long id, String name, int lives) {
            this.id = id;
            this.name = name;
            this.lives = lives;
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

    @Test
    void postgresJoinedInheritanceBulkHql() throws Exception {
        joinedInheritance(Vendor.POSTGRESQL);
    }

    @Test
    void mariaDbJoinedInheritanceBulkHql() throws Exception {
        joinedInheritance(Vendor.MARIADB);
    }

    @Test
    void h2JoinedInheritanceBulkHql() throws Exception {
        joinedInheritance(Vendor.H2);
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

    /**
     * Bulk HQL on a JOINED hierarchy: an update that assigns columns of the parent and the child
     * table, a delete of the parent entity (every subclass's rows) and one of a subclass. Hibernate
     * writes them as data-modifying CTEs (PostgreSQL) or through temporary tables of ids (MariaDB, H2).
     */
    private void joinedInheritance(Vendor vendor) throws Exception {
        start(vendor, "hibjoin");
        int[] counts = new int[6];
        concurrently(node -> factories.get(node).inTransaction(s -> {
            long base = (node + 1) * 100_000L;
            for (int i = 0; i < ROWS; i++) {
                long id = base + i;
                s.persist(i % 2 == 0 ? new Dog(id, "dog " + id, i) : new Cat(id, "cat " + id, 9));
            }
        }));
        cluster.waitForAll();
        // The bulk statements node by node, each while the other node's applier is idle: on MariaDB
        // the locking read of Hibernate's DELETE x FROM t x WHERE id IN (SELECT …) locks the whole
        // table and deadlocks again and again with an applier inserting into it (an open issue of the
        // MariaDB capture, not of WITH).
        for (int node = 0; node < 2; node++) {
            SessionFactory sf = factories.get(node);
            long base = (node + 1) * 100_000L;
            counts[node * 3] = sf.fromTransaction(s -> s.createMutationQuery(
                    "update Dog d set d.name = concat(d.name, ' (bulk)'), d.barks = d.barks + 1, d.age = 3"
                            + " where d.id >= :from and d.id < :to and mod(d.barks, 4) = 0")
                    .setParameter("from", base).setParameter("to", base + ROWS).executeUpdate());
            counts[node * 3 + 1] = sf.fromTransaction(s -> s.createMutationQuery(
                    "delete from Cat c where c.id >= :from and c.id < :to and mod(c.id, 4) = 1")
                    .setParameter("from", base).setParameter("to", base + ROWS).executeUpdate());
            counts[node * 3 + 2] = sf.fromTransaction(s -> s.createMutationQuery(
                    "delete from Animal a where a.id >= :from and a.id < :to and mod(a.id, 5) = 0")
                    .setParameter("from", base).setParameter("to", base + ROWS).executeUpdate());
            // rolled back: nothing of it may reach the log or the peer
            sf.inSession(s -> {
                s.beginTransaction();
                s.createMutationQuery("delete from Animal a where a.id >= :from and a.id < :to")
                        .setParameter("from", base).setParameter("to", base + ROWS).executeUpdate();
                s.getTransaction().rollback();
            });
            cluster.waitForAll();
        }
        // ids base + i (base divisible by 20): dogs at even i with barks = i, cats at odd i;
        // updated dogs i % 4 == 0 (10); deleted cats i % 4 == 1 (10); deleted animals i % 5 == 0:
        // dogs 0, 10, 20, 30 and the cats 15, 35 still there
        assertThat(counts).containsExactly(10, 10, 6, 10, 10, 6);
        for (String table : List.of("hib_animal", "hib_dog", "hib_cat")) assertIdentical(table);
        // each node's own LCRs: every changed row once, nothing of the rolled-back delete, nothing of
        // the temporary tables of ids Hibernate fills on MariaDB and H2
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(lcrCounts(i)).as("LCRs captured at " + Cluster.name(i)).containsExactly(
                    "DELETE hib_animal 16", "DELETE hib_cat 12", "DELETE hib_dog 4",
                    "INSERT hib_animal 40", "INSERT hib_cat 20", "INSERT hib_dog 20",
                    "UPDATE hib_animal 10", "UPDATE hib_dog 10");
        }
        long dogs = ROWS / 2 - 4;
        long cats = ROWS / 2 - 10 - 2;
        assertThat(cluster.count(1, "SELECT count(*) FROM hib_dog")).isEqualTo(2 * dogs);
        assertThat(cluster.count(1, "SELECT count(*) FROM hib_cat")).isEqualTo(2 * cats);
        assertThat(cluster.count(1, "SELECT count(*) FROM hib_animal")).isEqualTo(2 * (dogs + cats));
        assertThat(cluster.count(1, "SELECT count(*) FROM hib_animal WHERE name LIKE '%(bulk)' AND age = 3"))
                .isEqualTo(2 * 10 - 2 * 2); // updated dogs, minus those deleted (i in 0, 20)
        factories.get(1).inTransaction(s -> {
            Dog d = s.find(Dog.class, 100_004L);
            assertThat(d.name).isEqualTo("dog 100004 (bulk)");
            assertThat(d.barks).isEqualTo(5);
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
            Configuration c = entities();
            c.getProperties().put(AvailableSettings.DATASOURCE, pool);
            c.setProperty(AvailableSettings.HBM2DDL_AUTO, "none");
            factories.add(c.buildSessionFactory());
        }
    }

    private static Configuration entities() {
        return new Configuration().addAnnotatedClass(Doc.class).addAnnotatedClass(Tagged.class)
                .addAnnotatedClass(Animal.class).addAnnotatedClass(Dog.class).addAnnotatedClass(Cat.class);
    }

    private static Configuration configuration(String url, String user, String password) {
        Configuration c = entities();
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

    /** The node's own LCRs counted by command and table: {@code "DELETE hib_cat 12"}, sorted. */
    private List<String> lcrCounts(int node) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db(node).openRaw(); java.sql.PreparedStatement ps = c.prepareStatement(
                cluster.db(node).driverTables("SELECT command_type, lower(table_name), count(*) FROM repl_log"
                        + " WHERE source_node = ? GROUP BY command_type, lower(table_name)"))) {
            ps.setString(1, Cluster.name(node));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getLong(3));
            }
        }
        out.sort(null);
        return out;
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
