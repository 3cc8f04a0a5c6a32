package io.jdbcrepl.config;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;

import static io.jdbcrepl.config.Configs.fails;
import static io.jdbcrepl.config.Configs.load;
import static io.jdbcrepl.config.Configs.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplConfigTest {

    @TempDir
    Path dir;

    // ---- sources and precedence ----

    @Test
    void urlWithoutReplNodeIsAPassThrough() throws Exception {
        ReplConfig c = ReplConfig.load("jdbc:repl:postgresql://h/db?ssl=true", props("user", "u"));
        assertThat(c.replicationEnabled()).isFalse();
        assertThat(c.node()).isEmpty();
        assertThat(c.delegateUrl()).isEqualTo("jdbc:postgresql://h/db?ssl=true");
        assertThat(c.delegateProperties()).containsOnlyKeys("user");
        assertThat(c.peers()).isEmpty();
        assertThat(c.apply()).isFalse();
    }

    @Test
    void defaults() throws Exception {
        ReplConfig c = load("repl.node", "n1");
        assertThat(c.replicationEnabled()).isTrue();
        assertThat(c.node()).contains("n1");
        assertThat(c.tables()).containsExactly(new TablePattern("*", "*"));
        assertThat(c.exclude()).isEmpty();
        assertThat(c.apply()).isFalse();
        assertThat(c.applyBatch()).isEqualTo(500);
        assertThat(c.applyPoll()).isEqualTo(Duration.ofMillis(200));
        assertThat(c.install()).isEqualTo(InstallMode.AUTO);
        assertThat(c.schema()).isEmpty();
        assertThat(c.driverClass()).isEmpty();
        assertThat(c.unsupported()).isEqualTo(UnsupportedMode.ERROR);
        assertThat(c.supplemental()).isEqualTo(SupplementalMode.KEYS);
        assertThat(c.fkRetry()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
        assertThat(c.keyColumns()).isEmpty();
        assertThat(c.logGroups()).isEmpty();
        assertThat(c.timestampColumns()).isEmpty();
        assertThat(c.noCompare()).isEmpty();
        assertThat(c.handlers()).isEmpty();
        assertThat(c.dmlHandlers()).isEmpty();
    }

    @Test
    void everyScalarKeyIsRead() throws Exception {
        ReplConfig c = load("repl.node", "n1", "repl.tables", "hr.*, sales.orders", "repl.exclude", "hr.tmp*",
                "repl.apply", "true", "repl.apply.batch", "50", "repl.apply.poll", "1s", "repl.install", "none",
                "repl.schema", "repl_meta", "repl.driver", "org.h2.Driver", "repl.unsupported", "passthrough",
                "repl.supplemental", "all", "repl.fk.retry", "2m", "repl.retention", "PT12H");
        assertThat(c.tables()).containsExactly(new TablePattern("hr", "*"), new TablePattern("sales", "orders"));
        assertThat(c.exclude()).containsExactly(new TablePattern("hr", "tmp*"));
        assertThat(c.apply()).isTrue();
        assertThat(c.applyBatch()).isEqualTo(50);
        assertThat(c.applyPoll()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.install()).isEqualTo(InstallMode.NONE);
        assertThat(c.schema()).contains("repl_meta");
        assertThat(c.driverClass()).contains("org.h2.Driver");
        assertThat(c.unsupported()).isEqualTo(UnsupportedMode.PASSTHROUGH);
        assertThat(c.supplemental()).isEqualTo(SupplementalMode.ALL);
        assertThat(c.fkRetry()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.retention()).isEqualTo(Duration.ofHours(12));
    }

    @Test
    void theSpecsHikariExample() throws Exception {
        // SPEC 2's example: jdbcUrl plus dataSource.* properties
        ReplConfig c = ReplConfig.load("jdbc:repl:postgresql://db1.example.com:5432/hr?repl.node=dbs1&repl.peers=dbs2",
                props("repl.peer.dbs2.url", "jdbc:postgresql://db2.example.com:5432/hr",
                        "repl.timestamp.hr.employees", "time",
                        "repl.handler.salary_max.table", "hr.employees",
                        "repl.handler.salary_max.type", "MAXIMUM",
                        "repl.handler.salary_max.columns", "salary,commission_pct,time",
                        "repl.handler.salary_max.resolution", "time"));
        assertThat(c.delegateUrl()).isEqualTo("jdbc:postgresql://db1.example.com:5432/hr");
        assertThat(c.delegateProperties()).isEmpty();
        assertThat(c.node()).contains("dbs1");
        assertThat(c.peers()).containsExactly("dbs2");
        assertThat(c.peer("dbs2")).isEqualTo(new PeerConfig("dbs2", "jdbc:postgresql://db2.example.com:5432/hr",
                null, null));
        assertThat(c.apply()).isTrue();
        assertThat(c.timestampColumns()).containsExactly(Map.entry("hr.employees", "time"));
        assertThat(c.handlers()).containsExactly(new HandlerDefinition("salary_max", new TableName("hr", "employees"),
                HandlerType.MAXIMUM, ColumnSet.of(List.of("salary", "commission_pct", "time")), "time",
                DmlOperation.UPDATE, ConflictType.ROW_EXISTS));
    }

    @Test
    void urlWinsOverPropertiesWhichWinOverTheFile() throws Exception {
        Path file = write("repl.node=fromFile\nrepl.schema=fileSchema\nrepl.apply.batch=7\nrepl.install=none\n");
        ReplConfig c = ReplConfig.load("jdbc:repl:h2:mem:x?repl.node=fromUrl&repl.config=file:" + file,
                props("repl.node", "fromProps", "repl.schema", "propsSchema", "repl.apply.batch", "8"));
        assertThat(c.node()).contains("fromUrl");
        assertThat(c.schema()).contains("propsSchema");
        assertThat(c.applyBatch()).isEqualTo(8);
        assertThat(c.install()).isEqualTo(InstallMode.NONE);
        assertThat(c.replProperties()).containsEntry("repl.node", "fromUrl").containsEntry("repl.install", "none")
                .containsEntry("repl.config", "file:" + file);
    }

    @Test
    void configLocationInTheUrlWinsOverTheOneInProperties() throws Exception {
        Path a = write("repl.node=a\n");
        Path b = Files.writeString(dir.resolve("b.properties"), "repl.node=b\n");
        ReplConfig c = ReplConfig.load("jdbc:repl:h2:mem:x?repl.config=file:" + a,
                props("repl.config", "file:" + b));
        assertThat(c.node()).contains("a");
        assertThat(ReplConfig.load("jdbc:repl:h2:mem:x", props("repl.config", "file:" + b)).node()).contains("b");
    }

    @Test
    void callersPropertiesAreNeverChanged() throws Exception {
        Properties defaults = props("repl.schema", "s", "loginTimeout", "5");
        Properties info = new Properties(defaults);
        info.setProperty("repl.node", "n1");
        info.setProperty("user", "sa");
        info.put("socketTimeout", 30); // HikariCP's addDataSourceProperty takes Objects
        info.put("repl.apply.batch", 9);
        Properties before = new Properties();
        before.putAll(info);

        ReplConfig c = ReplConfig.load("jdbc:repl:h2:mem:x", info);

        assertThat(info).isEqualTo(before);
        assertThat(defaults).containsOnlyKeys("repl.schema", "loginTimeout");
        assertThat(c.schema()).contains("s");
        assertThat(c.applyBatch()).isEqualTo(9);
        Properties d = c.delegateProperties();
        assertThat(d).containsEntry("user", "sa").containsEntry("loginTimeout", "5").containsEntry("socketTimeout", 30)
                .doesNotContainKeys("repl.node", "repl.schema", "repl.apply.batch");
        d.setProperty("user", "changed");
        assertThat(c.delegateProperties()).containsEntry("user", "sa");
    }

    @Test
    void nullPropertiesAreEmpty() throws Exception {
        assertThat(ReplConfig.load("jdbc:repl:h2:mem:x?repl.node=a", null).node()).contains("a");
    }

    @Test
    void badUrlIs08001() {
        fails("08001", () -> ReplConfig.load("jdbc:repl::x", props()));
        fails("08001", () -> ReplConfig.load("jdbc:h2:mem:x", props()));
    }

    // ---- repl.config ----

    @Test
    void fileLocationForms() throws Exception {
        Path file = write("repl.node=n1\n# comment\nrepl.tables = hr.*\n");
        for (String loc : List.of("file:" + file, file.toUri().toString())) {
            ReplConfig c = load("repl.config", loc);
            assertThat(c.node()).as(loc).contains("n1");
            assertThat(c.tables()).containsExactly(new TablePattern("hr", "*"));
        }
    }

    @Test
    void fileIsReadAsUtf8() throws Exception {
        Path file = write("repl.node=nœud\n");
        assertThat(load("repl.config", "file:" + file).node()).contains("nœud");
    }

    @Test
    void missingFileNamesTheLocation() {
        SQLException e = fails("22023", "repl.config", "file:" + dir.resolve("nope.properties"));
        assertThat(e.getMessage()).contains("repl.config").contains("nope.properties");
        e = fails("22023", "repl.config", "classpath:io/jdbcrepl/nope.properties");
        assertThat(e.getMessage()).contains("classpath:io/jdbcrepl/nope.properties");
        fails("22023", "repl.config", "file:" + dir); // a directory
    }

    @Test
    void fileMayHoldOnlyReplKeys() throws Exception {
        SQLException e = fails("42704", "repl.config", "file:" + write("repl.node=a\npassword=s3cret\n"));
        assertThat(e.getMessage()).contains("1 line").contains("repl.*").doesNotContain("s3cret");
    }

    /** A file named by mistake: no part of any of its lines is quoted back. */
    @Test
    void aFileThatIsNotAConfigurationIsNeverQuoted() throws Exception {
        String shadow = "root:$6$Zk1salt$hashedsecretvalue:19000:0:99999:7:::\n"
                + "daemon:*:19000:0:99999:7:::\n";
        SQLException e = fails("42704", "repl.config", "file:" + write(shadow));
        assertThat(e.getMessage()).contains("2 lines").doesNotContain("root").doesNotContain("Zk1salt")
                .doesNotContain("hashedsecretvalue").doesNotContain("daemon");
    }

    @Test
    void filesDoNotNest() throws Exception {
        Path inner = Files.writeString(dir.resolve("inner.properties"), "repl.node=x\n");
        SQLException e = fails("22023", "repl.config", "file:" + write("repl.config=file:" + inner + "\n"));
        assertThat(e.getMessage()).contains("repl.config").contains("nest");
    }

    @Test
    void badValueInTheFileSaysWhereItCameFrom() throws Exception {
        Path file = write("repl.apply=yes\n");
        SQLException e = fails("22023", "repl.config", "file:" + file);
        assertThat(e.getMessage()).contains("repl.apply").contains("'yes'").contains(file.toString());
        e = fails("42704", "repl.config", "file:" + write("repl.nodes=x\n"));
        assertThat(e.getMessage()).contains("repl.nodes").contains("repl.config=file:");
    }

    @Test
    void classpathLocationUsesTheContextClassLoaderFirst() throws Exception {
        Files.createDirectories(dir.resolve("cfg"));
        Files.writeString(dir.resolve("cfg/repl.properties"), "repl.node=fromContext\n");
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
            t.setContextClassLoader(loader);
            assertThat(load("repl.config", "classpath:cfg/repl.properties").node()).contains("fromContext");
            assertThat(load("repl.config", "classpath:/cfg/repl.properties").node()).contains("fromContext");
        } finally {
            t.setContextClassLoader(before);
        }
        fails("22023", "repl.config", "classpath:cfg/repl.properties");
    }

    @Test
    void classpathLocationFallsBackToTheDriversLoader() throws Exception {
        // a resource only the driver's own loader sees: the test classes directory
        Path classes = Path.of(ReplConfigTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path res = classes.resolve("io/jdbcrepl/config/generated-repl-test.properties");
        Files.writeString(res, "repl.node=fromOwnLoader\n", StandardCharsets.UTF_8);
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        try {
            t.setContextClassLoader(null);
            assertThat(load("repl.config", "classpath:io/jdbcrepl/config/generated-repl-test.properties").node())
                    .contains("fromOwnLoader");
            t.setContextClassLoader(new URLClassLoader(new URL[0], null));
            assertThat(load("repl.config", "classpath:io/jdbcrepl/config/generated-repl-test.properties").node())
                    .contains("fromOwnLoader");
        } finally {
            t.setContextClassLoader(before);
            Files.deleteIfExists(res);
        }
    }

    private Path write(String text) throws Exception {
        return Files.writeString(dir.resolve("repl.properties"), text, StandardCharsets.UTF_8);
    }

    // ---- node and peers ----

    @Test
    void peersWithUrlsAndCredentials() throws Exception {
        ReplConfig c = load("repl.node", "dbs1", "repl.peers", "dbs2, dbs3",
                "repl.peer.dbs2.url", "jdbc:postgresql://h2/hr", "repl.peer.dbs2.user", "app",
                "repl.peer.dbs2.password", " s3cret ",
                "repl.peer.dbs3.url", "jdbc:mariadb://h3/hr", "repl.peer.dbs3.password", "");
        assertThat(c.peers()).containsExactly("dbs2", "dbs3");
        assertThat(c.peer("dbs2")).isEqualTo(new PeerConfig("dbs2", "jdbc:postgresql://h2/hr", "app", " s3cret "));
        assertThat(c.peer("DBS3")).isEqualTo(new PeerConfig("dbs3", "jdbc:mariadb://h3/hr", null, ""));
        assertThat(load("repl.node", "dbs1", "repl.peers", "dbs2", "repl.peer.dbs2.url", "jdbc:h2:mem:b",
                "repl.peer.DBS2.schema", "hr_repl").peer("dbs2").schema()).isEqualTo("hr_repl");
        assertThat(c.apply()).isTrue();
        assertThat(load("repl.node", "dbs1", "repl.peers", "dbs2", "repl.peer.dbs2.url", "jdbc:h2:mem:b",
                "repl.apply", "false").apply()).isFalse();
        assertThatThrownBy(() -> c.peer("dbs4")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dbs4");
    }

    @Test
    void everyPeerNeedsAUrl() {
        SQLException e = fails("22023", "repl.node", "a", "repl.peers", "b,c", "repl.peer.b.url", "jdbc:h2:mem:b");
        assertThat(e.getMessage()).contains("repl.peer.c.url");
    }

    @Test
    void peerKeysNeedThePeerListed() {
        SQLException e = fails("22023", "repl.node", "a", "repl.peers", "b", "repl.peer.b.url", "jdbc:h2:mem:b",
                "repl.peer.x.url", "jdbc:h2:mem:x");
        assertThat(e.getMessage()).contains("repl.peer.x.url").contains("repl.peers=b");
        e = fails("22023", "repl.node", "a", "repl.peer.x.password", "s3cret");
        assertThat(e.getMessage()).contains("repl.peer.x.password").doesNotContain("s3cret");
    }

    @Test
    void aPeerIsNotTheNodeItself() {
        SQLException e = fails("22023", "repl.node", "dbs1", "repl.peers", "DBS1", "repl.peer.DBS1.url", "jdbc:h2:mem:x");
        assertThat(e.getMessage()).contains("repl.node=dbs1").contains("DBS1");
    }

    @Test
    void peersNeedANode() {
        SQLException e = fails("22023", "repl.peers", "b", "repl.peer.b.url", "jdbc:h2:mem:b");
        assertThat(e.getMessage()).contains("repl.node").contains("repl.peers=b");
    }

    @Test
    void peerNamesInKeysMayNotHaveDots() {
        fails("42704", "repl.node", "a", "repl.peers", "b", "repl.peer.b.c.url", "jdbc:h2:mem:b");
    }

    // ---- tables ----

    @Test
    void replicatedTablesAreTablesMinusExcludeMinusOwnTables() throws Exception {
        ReplConfig c = load("repl.node", "n", "repl.tables", "hr.*,orders", "repl.exclude", "hr.tmp*");
        assertThat(c.isReplicated("hr", "employees", false)).isTrue();
        assertThat(c.isReplicated("HR", "EMPLOYEES", true)).isTrue();
        assertThat(c.isReplicated("hr", "tmp_x", false)).isFalse();
        assertThat(c.isReplicated("sales", "employees", false)).isFalse();
        assertThat(c.isReplicated("sales", "orders", false)).isTrue(); // current schema unknown
        assertThat(c.isReplicated("sales", "orders", "public", false)).isFalse();
        assertThat(c.isReplicated(null, "orders", "public", false)).isTrue();
        assertThat(c.isReplicated("PUBLIC", "ORDERS", "PUBLIC", true)).isTrue();
        assertThat(c.isReplicated(null, "employees", "hr", false)).isTrue();
        assertThat(c.isReplicated(null, "employees", null, false)).isFalse();
        assertThat(c.isReplicated("hr", "repl_log", false)).isFalse();
        assertThat(c.isReplicated("hr", "REPL_ERROR", true)).isFalse();
        assertThat(c.isReplicated("hr", "MLOG$_EMPLOYEES", true)).isFalse();
        ReplConfig all = load("repl.node", "n");
        assertThat(all.isReplicated("any", "thing", false)).isTrue();
        assertThat(all.isReplicated(null, "thing", null, true)).isTrue();
        assertThat(all.isReplicated("x", "repl_progress", false)).isFalse();
        assertThat(all.isReplicated("x", "replica", false)).isTrue();
    }

    @Test
    void tableKeysAreKeptAsWrittenAndLookedUpByFolding() throws Exception {
        ReplConfig c = load("repl.node", "n",
                "repl.key.hr.Employees", "emp_no, ssn",
                "repl.key.orders", "order_no",
                "repl.timestamp.hr.employees", "time",
                "repl.nocompare.hr.employees", "*",
                "repl.nocompare.orders", "note,updated",
                "repl.loggroup.hr.employees.g1", "salary,commission_pct",
                "repl.loggroup.hr.employees.g1.always", "true",
                "repl.loggroup.HR.EMPLOYEES.g2", "dept",
                "repl.loggroup.orders.g1", "total");
        assertThat(c.keyColumns()).containsOnly(Map.entry("hr.Employees", List.of("emp_no", "ssn")),
                Map.entry("orders", List.of("order_no")));
        assertThat(c.keyColumns("HR", "EMPLOYEES", null, true)).contains(List.of("emp_no", "ssn"));
        assertThat(c.keyColumns("hr", "employees", null, false)).contains(List.of("emp_no", "ssn"));
        assertThat(c.keyColumns("hr", "orders", "hr", false)).contains(List.of("order_no"));
        assertThat(c.keyColumns("hr", "orders", "sales", false)).isEmpty();
        assertThat(c.keyColumns("hr", "jobs", null, false)).isEmpty();
        assertThat(c.timestampColumn("hr", "employees", null, false)).contains("time");
        assertThat(c.noCompare("hr", "employees", null, false)).contains(ColumnSet.STAR);
        assertThat(c.noCompare().get("orders")).isEqualTo(ColumnSet.of(List.of("note", "updated")));
        assertThat(c.logGroups("hr", "employees", null, false)).containsExactlyInAnyOrder(
                new LogGroup("g1", List.of("salary", "commission_pct"), true),
                new LogGroup("g2", List.of("dept"), false));
        assertThat(c.logGroups().get("orders")).containsExactly(new LogGroup("g1", List.of("total"), false));
        assertThat(c.logGroups("x", "y", null, false)).isEmpty();
    }

    @Test
    void qualifiedTableKeyWinsOverUnqualified() throws Exception {
        ReplConfig c = load("repl.node", "n", "repl.key.emp", "a", "repl.key.hr.emp", "b");
        assertThat(c.keyColumns("hr", "emp", null, false)).contains(List.of("b"));
        assertThat(c.keyColumns("sales", "emp", null, false)).contains(List.of("a"));
    }

    @Test
    void oneTableNamedTwiceIsRejected() {
        SQLException e = fails("22023", "repl.key.hr.emp", "a", "repl.key.HR.EMP", "b");
        assertThat(e.getMessage()).contains("hr.emp").contains("HR.EMP");
        fails("22023", "repl.timestamp.emp", "a", "repl.timestamp.EMP", "b");
        fails("22023", "repl.loggroup.emp.g1", "a", "repl.loggroup.EMP.G1", "b");
    }

    @Test
    void alwaysNeedsTheGroupsColumns() {
        SQLException e = fails("22023", "repl.loggroup.hr.emp.g1.always", "true");
        assertThat(e.getMessage()).contains("repl.loggroup.hr.emp.g1.always");
        fails("22023", "repl.loggroup.hr.emp.g1.always", "true", "repl.loggroup.hr.emp.g2", "a");
    }

    @Test
    void badTableInAKeyIsRejected() {
        SQLException e = fails("22023", "repl.key.hr.emp-x", "a");
        assertThat(e.getMessage()).contains("repl.key.hr.emp-x");
    }

    // ---- diagnostics never show a password ----

    @Test
    void secretsAreMaskedEverywhere() throws Exception {
        ReplConfig c = ReplConfig.load("jdbc:repl:postgresql://h/db?password=topsecret&repl.node=a",
                props("repl.peers", "b", "repl.peer.b.url", "jdbc:postgresql://b/db?password=urlsecret",
                        "repl.peer.b.password", "s3cret", "password", "propsecret"));
        String all = c + " " + c.replProperties() + " " + c.peer("b") + " " + c.peers();
        assertThat(all).doesNotContain("s3cret").doesNotContain("topsecret").doesNotContain("urlsecret")
                .doesNotContain("propsecret").contains("****");
        assertThat(c.replProperties()).containsEntry("repl.peer.b.password", "****").containsEntry("repl.node", "a");
        assertThat(c.peer("b").password()).isEqualTo("s3cret");
        assertThat(c.delegateUrl()).isEqualTo("jdbc:postgresql://h/db?password=topsecret");
    }

    @Test
    void theLogKeyIsMaskedAndCheckedWithoutShowingIt() throws Exception {
        ReplConfig c = ReplConfig.load("jdbc:repl:h2:mem:x?repl.node=a&repl.log.key=sixteen-bytes-or-more", null);
        assertThat(c.logSignature()).isNotNull();
        String all = c + " " + c.replProperties() + " " + c.logSignature();
        assertThat(all).doesNotContain("sixteen-bytes-or-more");
        assertThat(c.replProperties()).containsEntry("repl.log.key", "****");
        assertThat(ReplUrl.mask("jdbc:repl:h2:mem:x?repl.log.key=sixteen-bytes-or-more&repl.node=a"))
                .isEqualTo("jdbc:repl:h2:mem:x?repl.log.key=****&repl.node=a");
        SQLException e = fails("22023", "repl.log.key", "short-key");
        assertThat(e.getMessage()).contains("repl.log.key", "16 bytes").doesNotContain("short-key");
        assertThat(ReplConfig.load("jdbc:repl:h2:mem:x?repl.node=a", null).logSignature()).isNull();
    }
}
