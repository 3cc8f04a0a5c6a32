package io.jdbcrepl.config;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverPropertyInfo;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReplPropertyTest {

    @Test
    void catalogueIsSortedByKey() {
        List<String> keys = Arrays.stream(ReplProperty.values()).map(ReplProperty::key).toList();
        assertThat(keys).isSorted();
    }

    @Test
    void keysAreUnique() {
        List<String> keys = Arrays.stream(ReplProperty.values()).map(ReplProperty::key).toList();
        assertThat(new HashSet<>(keys)).hasSize(keys.size());
    }

    @Test
    void everyKeyOfSpecSection2IsThere() {
        Set<String> keys = Arrays.stream(ReplProperty.values()).map(ReplProperty::key).collect(Collectors.toSet());
        assertThat(keys).containsExactlyInAnyOrder(
                "repl.node", "repl.tables", "repl.exclude", "repl.peers",
                "repl.peer.<peer>.url", "repl.peer.<peer>.user", "repl.peer.<peer>.password", "repl.peer.<peer>.schema",
                "repl.apply", "repl.apply.batch", "repl.apply.poll", "repl.apply.tables", "repl.install", "repl.schema",
                "repl.config", "repl.driver", "repl.unsupported", "repl.supplemental",
                "repl.key.<table>", "repl.loggroup.<table>.<group>", "repl.loggroup.<table>.<group>.always",
                "repl.timestamp.<table>", "repl.nocompare.<table>",
                "repl.handler.<name>.table", "repl.handler.<name>.type", "repl.handler.<name>.columns",
                "repl.handler.<name>.resolution", "repl.handler.<name>.operation", "repl.handler.<name>.conflict",
                "repl.dmlhandler.<name>.table", "repl.dmlhandler.<name>.operation",
                "repl.dmlhandler.<name>.class", "repl.dmlhandler.<name>.error_handler",
                "repl.fk.retry", "repl.retention", "repl.peer.timeout", "repl.log.key", "repl.health.lag", "repl.keys.step",
                "repl.keys.offset", "repl.join", "repl.ddl"); // SPEC 8.1, 8.2, 8.3
    }

    @ParameterizedTest
    @EnumSource(ReplProperty.class)
    void everyKeyIsDescribed(ReplProperty p) {
        assertThat(p.key()).startsWith("repl.");
        assertThat(p.type()).isNotNull();
        assertThat(p.description()).isNotBlank().doesNotContain("|").doesNotContain("\n");
        assertThat(p.since()).matches("\\d+\\.\\d+(\\.\\d+)?");
        assertThat(p.isTemplate()).isEqualTo(p.key().contains("<"));
    }

    @ParameterizedTest
    @EnumSource(ReplProperty.class)
    void everyDefaultParsesByItsOwnType(ReplProperty p) throws Exception {
        if (p.defaultValue() != null) {
            assertThat(Values.parse(p, p.key(), p.defaultValue())).isNotNull();
        }
        if (p.type() == ReplProperty.Type.BOOLEAN || p.type() == ReplProperty.Type.ENUM) {
            assertThat(p.choices()).isNotEmpty();
            if (p.defaultValue() != null) {
                assertThat(p.choices()).contains(p.defaultValue());
            }
            for (String choice : p.choices()) {
                assertThat(Values.parse(p, p.key(), choice)).isNotNull();
            }
        } else {
            assertThat(p.choices()).isEmpty();
        }
    }

    @Test
    void enumChoicesAreTheJavaEnumsConstants() {
        assertThat(upper(ReplProperty.INSTALL)).containsExactly(names(InstallMode.values()));
        assertThat(upper(ReplProperty.UNSUPPORTED)).containsExactly(names(UnsupportedMode.values()));
        assertThat(upper(ReplProperty.SUPPLEMENTAL)).containsExactly(names(SupplementalMode.values()));
        assertThat(upper(ReplProperty.HANDLER_TYPE)).containsExactly(names(HandlerType.values()));
        assertThat(upper(ReplProperty.HANDLER_CONFLICT)).containsExactly(names(java.util.Arrays.stream(ConflictType.values())
                .filter(ConflictType::isPrebuiltConflict).toArray(ConflictType[]::new)));
        assertThat(upper(ReplProperty.DMLHANDLER_OPERATION)).containsExactly(names(DmlOperation.values()));
        assertThat(upper(ReplProperty.HANDLER_OPERATION)).containsExactly("INSERT", "UPDATE", "DELETE");
    }

    private static String[] upper(ReplProperty p) {
        return p.choices().stream().map(String::toUpperCase).toArray(String[]::new);
    }

    private static String[] names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toArray(String[]::new);
    }

    @Test
    void defaultsOfSpecSection2() {
        Map<ReplProperty, String> expected = Map.of(
                ReplProperty.TABLES, "*.*", ReplProperty.INSTALL, "auto", ReplProperty.UNSUPPORTED, "error",
                ReplProperty.SUPPLEMENTAL, "KEYS", ReplProperty.FK_RETRY, "30s", ReplProperty.RETENTION, "7d",
                ReplProperty.LOGGROUP_ALWAYS, "false", ReplProperty.HANDLER_OPERATION, "UPDATE",
                ReplProperty.HANDLER_CONFLICT, "ROW_EXISTS", ReplProperty.HANDLER_COLUMNS, "*");
        expected.forEach((p, d) -> assertThat(p.defaultValue()).as(p.key()).isEqualTo(d));
        assertThat(ReplProperty.DMLHANDLER_ERROR_HANDLER.defaultValue()).isEqualTo("false");
        assertThat(ReplProperty.APPLY.defaultValue()).isNull();
        assertThat(ReplProperty.APPLY.defaultText()).contains("repl.peers");
        assertThat(ReplProperty.NODE.defaultValue()).isNull();
    }

    @Test
    void onlyThePeerPasswordAndTheLogKeyAreSecret() {
        assertThat(Arrays.stream(ReplProperty.values()).filter(ReplProperty::isSecret))
                .containsExactly(ReplProperty.LOG_KEY, ReplProperty.PEER_PASSWORD);
    }

    @ParameterizedTest
    @CsvSource({
        "repl.node, NODE",
        "repl.apply, APPLY",
        "repl.apply.batch, APPLY_BATCH",
        "repl.apply.poll, APPLY_POLL",
        "repl.peers, PEERS",
        "repl.peer.dbs2.url, PEER_URL",
        "repl.peer.dbs2.user, PEER_USER",
        "repl.peer.dbs2.password, PEER_PASSWORD",
        "repl.peer.dbs2.schema, PEER_SCHEMA",
        "repl.peer.db-east_2.url, PEER_URL",
        "repl.key.hr.employees, KEY",
        "repl.key.employees, KEY",
        "repl.timestamp.hr.employees, TIMESTAMP",
        "repl.nocompare.orders, NOCOMPARE",
        "repl.loggroup.hr.employees.g1, LOGGROUP",
        "repl.loggroup.employees.g1, LOGGROUP",
        "repl.loggroup.hr.employees.g1.always, LOGGROUP_ALWAYS",
        "repl.loggroup.employees.g1.always, LOGGROUP_ALWAYS",
        "repl.handler.salary_max.table, HANDLER_TABLE",
        "repl.handler.salary_max.type, HANDLER_TYPE",
        "repl.handler.h.columns, HANDLER_COLUMNS",
        "repl.handler.h.resolution, HANDLER_RESOLUTION",
        "repl.handler.h.operation, HANDLER_OPERATION",
        "repl.handler.h.conflict, HANDLER_CONFLICT",
        "repl.dmlhandler.h.table, DMLHANDLER_TABLE",
        "repl.dmlhandler.h.class, DMLHANDLER_CLASS",
        "repl.dmlhandler.h.operation, DMLHANDLER_OPERATION",
        "repl.dmlhandler.h.error_handler, DMLHANDLER_ERROR_HANDLER",
        "repl.fk.retry, FK_RETRY",
        "repl.retention, RETENTION",
        "repl.config, CONFIG",
        "repl.driver, DRIVER",
        "repl.schema, SCHEMA",
        "repl.install, INSTALL",
        "repl.unsupported, UNSUPPORTED",
        "repl.supplemental, SUPPLEMENTAL",
        "repl.tables, TABLES",
        "repl.exclude, EXCLUDE",
    })
    void forKeyResolvesConcreteKeys(String key, ReplProperty expected) {
        assertThat(ReplProperty.forKey(key)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "repl.nodes", "repl.Node", "repl.", "repl", "node", "repl.peer.dbs2", "repl.peer.dbs2.host",
        "repl.peer.a.b.url", "repl.peer..url", "repl.key", "repl.key.", "repl.key.a.b.c",
        "repl.handler.h", "repl.handler.h.tabel", "repl.handler.a.b.table", "repl.handler..table",
        "repl.dmlhandler.h.error-handler", "repl.loggroup.t", "repl.loggroup.a.b.c.d",
        "repl.loggroup.a.b.c.d.always", "repl.timestamp", "repl.nocompare.a b", "repl.peer.a b.url",
        "repl.apply.batchsize", "repl.fk", "repl.<name>", "repl.handler.<name>.table ",
    })
    void forKeyRejectsUnknownKeys(String key) {
        assertThat(ReplProperty.forKey(key)).isEmpty();
    }

    @Test
    void forKeyOfNullIsEmpty() {
        assertThat(ReplProperty.forKey(null)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "repl.loggroup.hr.employees.g1.always, hr.employees, g1",
        "repl.loggroup.employees.g1.always, employees, g1",
        "repl.loggroup.hr.employees.g1, hr.employees, g1",
        "repl.loggroup.employees.g1, employees, g1",
        "repl.loggroup.hr.always.g1, hr.always, g1",
    })
    void logGroupKeysSplitIntoTableAndGroup(String key, String table, String group) {
        ReplProperty.KeyMatch m = ReplProperty.match(key).orElseThrow();
        assertThat(m.args()).containsExactly(table, group);
    }

    @Test
    void everyTemplateResolvesAnExampleOfItself() {
        Function<String, String> example = k -> k.replace("<table>", "hr.employees").replace("<name>", "h1")
                .replace("<peer>", "dbs2").replace("<group>", "g1");
        for (ReplProperty p : ReplProperty.values()) {
            assertThat(ReplProperty.forKey(example.apply(p.key()))).as(p.key()).contains(p);
            assertThat(ReplProperty.forKey(p.key())).as("the template text itself").isEqualTo(
                    p.isTemplate() ? Optional.empty() : Optional.of(p));
        }
    }

    @Test
    void driverPropertyInfoListsTheCatalogueWithChoicesAndNoSecrets() {
        Properties info = Configs.props("repl.node", "dbs1", "repl.apply", "false",
                "repl.peer.dbs2.url", "jdbc:h2:mem:b", "repl.peer.dbs2.password", "s3cret", "user", "sa");
        DriverPropertyInfo[] infos = ReplProperty.driverPropertyInfo(info);
        Map<String, DriverPropertyInfo> byName = Arrays.stream(infos)
                .collect(Collectors.toMap(i -> i.name, i -> i));
        assertThat(byName).doesNotContainKey("user");
        assertThat(byName.get("repl.node").value).isEqualTo("dbs1");
        assertThat(byName.get("repl.apply").value).isEqualTo("false");
        assertThat(byName.get("repl.apply").choices).containsExactly("true", "false");
        assertThat(byName.get("repl.install").value).isEqualTo("auto");
        assertThat(byName.get("repl.install").choices).containsExactly("auto", "none");
        assertThat(byName.get("repl.peer.dbs2.url").value).isEqualTo("jdbc:h2:mem:b");
        assertThat(byName.get("repl.peer.dbs2.password").value).isNull();
        assertThat(byName).containsKey("repl.peer.<peer>.user").doesNotContainKey("repl.peer.<peer>.url");
        assertThat(byName.get("repl.tables").choices).isNull();
        assertThat(infos).allSatisfy(i -> {
            assertThat(i.required).isFalse();
            assertThat(i.description).isNotBlank();
            assertThat(String.valueOf(i.value)).doesNotContain("s3cret");
        });
    }

    @Test
    void driverPropertyInfoTakesTheUrlOverTheProperties() {
        DriverPropertyInfo[] infos = ReplProperty.driverPropertyInfo(
                "jdbc:repl:h2:mem:x?repl.node=fromUrl&repl.peer.p.password=s3cret",
                Configs.props("repl.node", "fromProps"));
        Map<String, DriverPropertyInfo> byName = Arrays.stream(infos).collect(Collectors.toMap(i -> i.name, i -> i));
        assertThat(byName.get("repl.node").value).isEqualTo("fromUrl");
        assertThat(byName.get("repl.peer.p.password").value).isNull();
    }

    @Test
    void driverPropertyInfoIsLenientAboutHalfTypedUrls() {
        assertThat(ReplProperty.driverPropertyInfo("jdbc:repl:", null)).hasSize(ReplProperty.values().length);
        assertThat(ReplProperty.driverPropertyInfo("jdbc:repl:h2:x?repl.node=%zz", null))
                .hasSize(ReplProperty.values().length);
    }

    @Test
    void driverPropertyInfoOfALoadedConfig() throws Exception {
        ReplConfig c = Configs.load("repl.node", "n1", "repl.peers", "n2", "repl.peer.n2.url", "jdbc:h2:mem:n2",
                "repl.peer.n2.password", "s3cret");
        Map<String, DriverPropertyInfo> byName = Arrays.stream(ReplProperty.driverPropertyInfo(c))
                .collect(Collectors.toMap(i -> i.name, i -> i));
        assertThat(byName.get("repl.peers").value).isEqualTo("n2");
        assertThat(byName.get("repl.peer.n2.password").value).isNull();
    }
}
