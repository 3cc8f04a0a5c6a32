package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every typed key refuses values that are not clearly meant, naming the key and the value. */
class BadValueTest {

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
        // booleans: the Boolean.parseBoolean trap
        "repl.apply|yes", "repl.apply|1", "repl.apply|0", "repl.apply|", "repl.apply|no", "repl.apply|on",
        "repl.apply|t", "repl.apply|truee", "repl.apply|tru", "repl.apply|false!",
        "repl.loggroup.hr.emp.g1.always|yes", "repl.dmlhandler.h.error_handler|1",
        // ints
        "repl.apply.batch|0", "repl.apply.batch|-1", "repl.apply.batch|abc", "repl.apply.batch|1.5",
        "repl.apply.batch|100001", "repl.apply.batch|99999999999", "repl.apply.batch|", "repl.apply.batch|+5",
        "repl.apply.batch|1e3", "repl.apply.batch|0x10", "repl.apply.batch|2147483648", "repl.apply.batch|5 0",
        // durations
        "repl.apply.poll|0s", "repl.apply.poll|0ms", "repl.apply.poll|PT0S", "repl.apply.poll|-5s",
        "repl.apply.poll|PT-1S", "repl.apply.poll|5", "repl.apply.poll|5 s", "repl.apply.poll|abc",
        "repl.apply.poll|5w", "repl.apply.poll|1.5s", "repl.apply.poll|", "repl.apply.poll|P",
        "repl.apply.poll|99999999999999999999d", "repl.apply.poll|9999999999999999d", "repl.apply.poll|s",
        "repl.fk.retry|-1s", "repl.fk.retry|x", "repl.fk.retry|-PT1S", "repl.retention|0d", "repl.retention|7",
        "repl.retention|7 days",
        // enums
        "repl.install|automatic", "repl.install|", "repl.install|yes", "repl.unsupported|warn", "repl.ddl|replicated",
        "repl.ddl|off", "repl.ddl|",
        "repl.supplemental|SOME", "repl.supplemental|KEY", "repl.handler.h.type|MAX", "repl.handler.h.type|DELTAS",
        "repl.handler.h.operation|LOB_UPDATE", "repl.handler.h.operation|UPSERT", "repl.handler.h.operation|DEFAULT",
        "repl.handler.h.conflict|ROW_GONE", "repl.handler.h.conflict|EXISTS", "repl.dmlhandler.h.operation|MERGE",
        // table patterns
        "repl.tables|hr..x", "repl.tables|a.b.c", "repl.tables|", "repl.tables|hr,,x", "repl.tables|hr.emp-x",
        "repl.tables|hr.*,hr.*", "repl.tables|HR.*,hr.*", "repl.tables|hr.", "repl.tables|.x", "repl.tables|,",
        "repl.tables|hr.*,", "repl.exclude|a b", "repl.exclude|\"Quoted\"",
        // names
        "repl.peers|a,,b", "repl.peers|a.b", "repl.peers|a b", "repl.peers|a,a", "repl.peers|A,a", "repl.peers|,",
        "repl.peers|", "repl.peers|a;b",
        // columns
        "repl.key.hr.emp|*", "repl.key.hr.emp|a,,b", "repl.key.hr.emp|a,a", "repl.key.hr.emp|a,A",
        "repl.key.hr.emp|a b", "repl.key.hr.emp|t.a", "repl.key.hr.emp|", "repl.loggroup.hr.emp.g1|*",
        "repl.loggroup.hr.emp.g1|a,", "repl.nocompare.emp|*,a", "repl.nocompare.emp|a,*", "repl.nocompare.emp|a,,b",
        "repl.handler.h.columns|a,a", "repl.handler.h.columns|*,a", "repl.handler.h.columns|",
        // class names
        "repl.driver|org..Driver", "repl.driver|1abc", "repl.driver|a-b", "repl.driver|", "repl.driver|org.X.",
        "repl.dmlhandler.h.class|.X", "repl.dmlhandler.h.class|com.x y",
        // locations
        "repl.config|http://x/repl.properties", "repl.config|file:", "repl.config|classpath:", "repl.config|/etc/x",
        // strings with a shape
        "repl.node|a.b", "repl.node|a b", "repl.node|", "repl.node|a,b", "repl.node|a/b",
        "repl.schema|a.b", "repl.schema|a b", "repl.peer.p.schema|a.b", "repl.timestamp.emp|a,b", "repl.timestamp.emp|a.b",
        "repl.handler.h.resolution|a,b", "repl.handler.h.table|a.b.c", "repl.handler.h.table|a b",
        "repl.handler.h.table|", "repl.dmlhandler.h.table|hr.", "repl.peer.p.url|h2:mem",
        "repl.peer.p.url|jdbc:", "repl.peer.p.url|jdbc::x", "repl.peer.p.url|postgresql://h/db",
        "repl.peer.p.url|jdbc:repl:h2:mem:p", "repl.peer.p.user|",
    })
    void badValueIsRejected(String key, String value) {
        String v = value == null ? "" : value;
        SQLException e = Configs.fails("22023", () -> ReplConfig.load(Configs.URL, Configs.props(key, v)));
        assertThat(e.getMessage()).contains(key).contains("'" + v + "'");
    }

    @Test
    void badValueInTheUrlIsRejectedToo() {
        SQLException e = Configs.fails("22023", () -> ReplConfig.load("jdbc:repl:h2:mem:x?repl.apply=yes", null));
        assertThat(e.getMessage()).contains("repl.apply").contains("'yes'").contains("URL");
    }

    @Test
    void peerUrlThatIsAReplUrlSaysWhatToWrite() {
        SQLException e = Configs.fails("22023", "repl.peer.p.url", "jdbc:repl:postgresql://h/db?password=s3cret");
        assertThat(e.getMessage()).contains("jdbc:postgresql://h/db").doesNotContain("s3cret");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "repl.nodes|x", "repl.Node|x", "repl.handler.h.tabel|t", "repl.peer.p.host|h", "repl.key.a.b.c|x",
        "repl.foo|bar", "repl.apply.batchsize|5", "repl.loggroup.t|a",
    })
    void unknownReplKeyIs42704(String key, String value) {
        SQLException e = Configs.fails("42704", key, value);
        assertThat(e.getMessage()).contains(key).contains(value);
    }

    @Test
    void unknownPasswordLikeKeyDoesNotShowItsValue() {
        SQLException e = Configs.fails("42704", "repl.peer.p.pasword", "s3cret");
        assertThat(e.getMessage()).contains("repl.peer.p.pasword").doesNotContain("s3cret");
    }

    @Test
    void nonReplKeysPassThroughUntouched() throws Exception {
        ReplConfig c = Configs.load("replication", "x", "REPL.node", "y", "user", "sa", "password", "p");
        assertThat(c.delegateProperties()).containsEntry("replication", "x").containsEntry("REPL.node", "y")
                .containsEntry("user", "sa").containsEntry("password", "p");
        assertThat(c.replicationEnabled()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
        "repl.apply, TRUE", "repl.apply, False", "repl.apply, ' true '", "repl.install, NONE", "repl.install, Auto",
        "repl.unsupported, PassThrough", "repl.supplemental, all", "repl.handler.h.type, maximum", "repl.ddl, LOCAL",
    })
    void goodValuesInAnyCase(String key, String value) throws Exception {
        ReplProperty p = ReplProperty.forKey(key).orElseThrow();
        assertThat(Values.parse(p, key, value)).isNotNull();
    }

    @ParameterizedTest
    @CsvSource({
        "500ms, PT0.5S", "30s, PT30S", "5m, PT5M", "2h, PT2H", "7d, PT168H", "PT30S, PT30S", "P7D, PT168H",
        "pt1m, PT1M", "1S, PT1S", "PT0.25S, PT0.25S", "P1DT1H, PT25H",
    })
    void durations(String text, String iso) throws Exception {
        assertThat(Values.parse(ReplProperty.APPLY_POLL, "repl.apply.poll", text)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void fkRetryMayBeZeroMeaningNoRetry() throws Exception {
        assertThat(Configs.load("repl.fk.retry", "0s").fkRetry()).isZero();
    }

    // ---- properties ----

    @Property
    void onlyTrueAndFalseAreBooleans(@ForAll("words") String value) {
        boolean ok = value.trim().equalsIgnoreCase("true") || value.trim().equalsIgnoreCase("false");
        try {
            Object v = Values.parse(ReplProperty.APPLY, "repl.apply", value);
            assertThat(ok).as(value).isTrue();
            assertThat(v).isEqualTo(value.trim().equalsIgnoreCase("true"));
        } catch (SQLException e) {
            assertThat(ok).as(value).isFalse();
            assertThat(e.getSQLState()).isEqualTo("22023");
        }
    }

    @Provide
    Arbitrary<String> words() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("truefalsTRUEFALS 1yYnN").ofMaxLength(6),
                Arbitraries.of("true", "false", "TRUE", "False", "yes", "no", "1", "0", "", " true"));
    }

    @Property
    void batchSizesInRangeRoundTrip(@ForAll @IntRange(min = 1, max = Values.MAX_APPLY_BATCH) int n)
            throws Exception {
        assertThat(Configs.load("repl.apply.batch", Integer.toString(n)).applyBatch()).isEqualTo(n);
    }

    @Property
    void batchSizesOutOfRangeAreRejected(@ForAll long n) {
        if (n >= 1 && n <= Values.MAX_APPLY_BATCH) {
            return;
        }
        Configs.fails("22023", "repl.apply.batch", Long.toString(n));
    }

    @Property
    void shortDurationsRoundTrip(@ForAll @IntRange(min = 1, max = 1_000_000) int n,
            @ForAll("units") String unit) throws Exception {
        Duration expected = switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        assertThat(Configs.load("repl.retention", n + unit).retention()).isEqualTo(expected);
        assertThat(Configs.load("repl.apply.poll", n + unit.toUpperCase(Locale.ROOT)).applyPoll()).isEqualTo(expected);
        assertThat(Configs.load("repl.fk.retry", expected.toString()).fkRetry()).isEqualTo(expected);
        Configs.fails("22023", "repl.retention", "-" + n + unit);
    }

    @Provide
    Arbitrary<String> units() {
        return Arbitraries.of("ms", "s", "m", "h", "d");
    }
}
