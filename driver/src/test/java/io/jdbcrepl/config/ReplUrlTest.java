package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReplUrlTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdbc:repl:h2:mem:x;repl.node=a|repl.node",
        "jdbc:repl:h2:mem:x;DB_CLOSE_DELAY=-1;REPL.PEERS=b,c?repl.node=a|REPL.PEERS",
        "jdbc:repl:sqlserver://h;databaseName=x;repl.tables|repl.tables",
    })
    void replKeysWrittenAsSemicolonSettingsAreRefusedWithWhereTheyGo(String url, String key) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReplUrl.parse(url))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
                .hasMessageContaining(key).hasMessageContaining("query string");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "jdbc:repl:postgresql://db1.example.com:5432/hr", "jdbc:repl:h2:mem:x", "jdbc:repl:mysql://h/db",
        "jdbc:repl:mariadb://h:3306/db?user=root", "jdbc:repl:h2:", "jdbc:repl:sqlserver://h;databaseName=x",
        "jdbc:repl:oracle:thin:@h:1521/svc", "jdbc:repl:log4jdbc:h2:mem:x",
    })
    void acceptsReplUrls(String url) throws Exception {
        assertThat(ReplUrl.accepts(url)).isTrue();
        assertThat(ReplUrl.parse(url).delegateUrl()).isEqualTo("jdbc:" + url.substring("jdbc:repl:".length()));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {
        "", "jdbc:repl:", "jdbc:repl::x", "jdbc:repl:h2", "jdbc:h2:mem:x", "jdbc:postgresql://h/db",
        "JDBC:REPL:h2:mem:x", "jdbc:repl", "repl:h2:mem:x", " jdbc:repl:h2:mem:x", "jdbc:repl:?repl.node=a:b",
        "jdbc:repl:/h2:x", "jdbc:repl: h2:x", "jdbc:repl:2h:x",
    })
    void rejectsOtherUrls(String url) {
        assertThat(ReplUrl.accepts(url)).isFalse();
        SQLException e = Configs.fails("08001", () -> ReplUrl.parse(url));
        assertThat(e.getMessage()).contains("jdbc:repl:<subprotocol>:").contains(String.valueOf(url));
    }

    @Test
    void malformedUrlMessageMasksThePassword() {
        SQLException e = Configs.fails("08001", () -> ReplUrl.parse("jdbc:repl::x?password=s3cret&user=u"));
        assertThat(e.getMessage()).doesNotContain("s3cret").contains("password=****");
    }

    @ParameterizedTest
    @CsvSource({
        "jdbc:repl:postgresql://h/db, postgresql",
        "jdbc:repl:h2:mem:x, h2",
        "jdbc:repl:mariadb://h/db, mariadb",
        "jdbc:repl:mysql://h/db, mysql",
    })
    void subprotocol(String url, String expected) throws Exception {
        assertThat(ReplUrl.parse(url).subprotocol()).isEqualTo(expected);
    }

    @Test
    void prefixIsStrippedOnceAtTheStart() throws Exception {
        assertThat(ReplUrl.parse("jdbc:repl:h2:mem:jdbc:repl:x").delegateUrl()).isEqualTo("jdbc:h2:mem:jdbc:repl:x");
        assertThat(ReplUrl.parse("jdbc:repl:h2:mem:x;INIT=SET @a='jdbc:repl:'").delegateUrl())
                .isEqualTo("jdbc:h2:mem:x;INIT=SET @a='jdbc:repl:'");
        assertThat(ReplUrl.parse("jdbc:repl:postgresql://h/db?app=jdbc:repl:x&repl.node=n").delegateUrl())
                .isEqualTo("jdbc:postgresql://h/db?app=jdbc:repl:x");
    }

    @Test
    void replKeysAreRemovedAndOthersKeptInOrder() throws Exception {
        ReplUrl u = ReplUrl.parse("jdbc:repl:postgresql://db1:5432/hr?ssl=true&repl.node=dbs1&ApplicationName=a%20b"
                + "&repl.peers=dbs2&options=-c%20search_path%3Dhr");
        assertThat(u.delegateUrl())
                .isEqualTo("jdbc:postgresql://db1:5432/hr?ssl=true&ApplicationName=a%20b&options=-c%20search_path%3Dhr");
        assertThat(u.replProperties()).containsExactly(
                java.util.Map.entry("repl.node", "dbs1"), java.util.Map.entry("repl.peers", "dbs2"));
    }

    @Test
    void questionMarkDroppedWhenNothingIsLeft() throws Exception {
        assertThat(ReplUrl.parse("jdbc:repl:postgresql://h/db?repl.node=a&repl.peers=b").delegateUrl())
                .isEqualTo("jdbc:postgresql://h/db");
        assertThat(ReplUrl.parse("jdbc:repl:h2:mem:x;DB_CLOSE_DELAY=-1?repl.node=a").delegateUrl())
                .isEqualTo("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1");
        assertThat(ReplUrl.parse("jdbc:repl:postgresql://h/db?repl.node=a&").delegateUrl())
                .isEqualTo("jdbc:postgresql://h/db");
    }

    @Test
    void urlWithoutReplKeysIsPassedThroughByteForByte() throws Exception {
        for (String rest : List.of("postgresql://h/db?", "postgresql://h/db?a=1&&b=%zz", "mysql://h/db?x&y=",
                "h2:mem:x?")) {
            ReplUrl u = ReplUrl.parse("jdbc:repl:" + rest);
            assertThat(u.delegateUrl()).isEqualTo("jdbc:" + rest);
            assertThat(u.replProperties()).isEmpty();
        }
    }

    @Test
    void valuesAreUrlDecoded() throws Exception {
        ReplUrl u = ReplUrl.parse("jdbc:repl:postgresql://h/db?repl.peers=dbs2%2Cdbs3&repl.tables=hr.*,+sales.*"
                + "&repl%2Eschema=r&repl.peer.dbs2.url=jdbc%3Apostgresql%3A%2F%2Fh2%2Fdb%3Fssl%3Dtrue%26a%3Db");
        assertThat(u.replProperties())
                .containsEntry("repl.peers", "dbs2,dbs3")
                .containsEntry("repl.tables", "hr.*, sales.*")
                .containsEntry("repl.schema", "r")
                .containsEntry("repl.peer.dbs2.url", "jdbc:postgresql://h2/db?ssl=true&a=b");
        assertThat(u.delegateUrl()).isEqualTo("jdbc:postgresql://h/db");
    }

    @Test
    void keyWithoutValueHasTheEmptyValue() throws Exception {
        assertThat(ReplUrl.parse("jdbc:repl:h2:mem:x?repl.apply").replProperties()).containsEntry("repl.apply", "");
    }

    @ParameterizedTest
    @ValueSource(strings = {"repl.node=a%zz", "repl.node=a%", "repl.node=%2", "repl.peer.p.password=%G0"})
    void badEncodingIsRejectedNamingTheKey(String param) {
        SQLException e = Configs.fails("22023", () -> ReplUrl.parse("jdbc:repl:h2:mem:x?password=s3cret&" + param));
        assertThat(e.getMessage()).contains(param.substring(0, param.indexOf('='))).doesNotContain("s3cret")
                .contains("jdbc:repl:h2:mem:x");
    }

    @Test
    void badEncodingInAReplKeyNameIsRejected() {
        Configs.fails("22023", () -> ReplUrl.parse("jdbc:repl:h2:mem:x?repl.no%zde=a"));
    }

    @Test
    void keyGivenTwiceInTheUrlIsRejected() {
        SQLException e = Configs.fails("22023", () -> ReplUrl.parse("jdbc:repl:h2:mem:x?repl.node=a&repl.node=b"));
        assertThat(e.getMessage()).contains("repl.node");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdbc:postgresql://h/db?user=u&password=s3cret&ssl=true | jdbc:postgresql://h/db?user=u&password=****&ssl=true",
        "jdbc:h2:mem:x;USER=sa;PASSWORD=s3cret;MODE=x | jdbc:h2:mem:x;USER=sa;PASSWORD=****;MODE=x",
        "jdbc:mysql://u:s3cret@h/db | jdbc:mysql://u:****@h/db",
        "jdbc:repl:h2:x?repl.peer.b.password=s3cret | jdbc:repl:h2:x?repl.peer.b.password=****",
        "jdbc:repl:h2:x?repl.peer.b.url=u&pwd=s3cret | jdbc:repl:h2:x?repl.peer.b.url=u&pwd=****",
        "jdbc:postgresql://h/db | jdbc:postgresql://h/db",
        "jdbc:mysql://u:pa@ss@h/db | jdbc:mysql://u:****@h/db",
        "jdbc:mysql://u:p@s@s@h1:3306,h2:3306/db?x=1 | jdbc:mysql://u:****@h1:3306,h2:3306/db?x=1",
        "jdbc:mariadb://u:s3cret@h/db?password=s3cret2 | jdbc:mariadb://u:****@h/db?password=****",
        "jdbc:mysql://address=(host=h)(port=3306)(password=s3cret)(user=u)/db | jdbc:mysql://address=(host=h)(port=3306)(password=****)(user=u)/db",
        "jdbc:mysql://address=(host=h)(PASSWORD=s3cret)/db | jdbc:mysql://address=(host=h)(PASSWORD=****)/db",
        "jdbc:mysql://(host=h,port=3306,password=s3cret,user=u)/db | jdbc:mysql://(host=h,port=3306,password=****,user=u)/db",
        "jdbc:mysql://(host=h, password = s3cret)/db | jdbc:mysql://(host=h, password = ****)/db",
        "jdbc:mysql://[(host=h1,password=s3cret),(host=h2,password=s3cret)]/db | jdbc:mysql://[(host=h1,password=****),(host=h2,password=****)]/db",
        "jdbc:mariadb:replication://address=(host=h)(type=master)(password=s3cret)/db | jdbc:mariadb:replication://address=(host=h)(type=master)(password=****)/db",
        "jdbc:postgresql://h/db?sslpassword=s3cret | jdbc:postgresql://h/db?sslpassword=****",
    })
    void maskHidesPasswords(String url, String masked) {
        assertThat(ReplUrl.mask(url)).isEqualTo(masked);
    }

    /** Every URL form the vendor drivers take a password in, with passwords of awkward characters. */
    @Property
    void noPasswordFormLeaks(@ForAll("passwords") String password) {
        List<String> forms = List.of(
                "jdbc:postgresql://h/db?user=u&password=" + password + "&ssl=true",
                "jdbc:h2:tcp://h/db;USER=sa;PASSWORD=" + password + ";MODE=x",
                "jdbc:mysql://u:" + password + "@h/db",
                "jdbc:mariadb://u:" + password + "@h1:3306,h2/db?x=1",
                "jdbc:mysql://address=(host=h)(password=" + password + ")(user=u)/db",
                "jdbc:mysql://(host=h,password=" + password + ",user=u)/db",
                "jdbc:repl:postgresql://h/db?repl.node=a&repl.peer.b.password=" + password);
        for (String url : forms) {
            assertThat(ReplUrl.mask(url)).as(url).doesNotContain(password);
        }
    }

    @Provide
    Arbitrary<String> passwords() {
        // what each form can carry unencoded: no separators of its own (&;#/?,()), '@' and ':' included
        return Arbitraries.strings().withChars("abcXYZ0189@:!$%*+-.~_^'\"[]{}|<> ").ofMinLength(6).ofMaxLength(20)
                .filter(p -> !p.isBlank() && !p.startsWith(" ") && !p.endsWith(" "));
    }

    // ---- properties ----

    @Property
    void otherParametersSurviveByteForByte(@ForAll("params") List<String> params,
            @ForAll("replParams") List<String> repl) throws Exception {
        List<String> all = new ArrayList<>();
        // interleave, keeping each list's order
        for (int i = 0; i < Math.max(params.size(), repl.size()); i++) {
            if (i < repl.size()) {
                all.add(repl.get(i));
            }
            if (i < params.size()) {
                all.add(params.get(i));
            }
        }
        String url = "jdbc:repl:postgresql://h/db" + (all.isEmpty() ? "" : "?" + String.join("&", all));
        ReplUrl u = ReplUrl.parse(url);
        if (repl.isEmpty()) {
            assertThat(u.delegateUrl()).isEqualTo("jdbc:" + url.substring("jdbc:repl:".length()));
        } else {
            assertThat(u.delegateUrl()).isEqualTo("jdbc:postgresql://h/db"
                    + (params.isEmpty() ? "" : "?" + String.join("&", params)));
        }
        assertThat(u.replProperties()).hasSize(repl.size());
    }

    @Provide
    Arbitrary<List<String>> params() {
        // no 'r': a name can never decode to repl.*; '%' makes some names undecodable on purpose
        Arbitrary<String> name = Arbitraries.strings().withChars("abcXYZ_.-%2F0").ofMinLength(1).ofMaxLength(8);
        Arbitrary<String> value = Arbitraries.strings().withChars("abc=:/%+;.*?x").ofMaxLength(10);
        return net.jqwik.api.Combinators.combine(name, value).as((n, v) -> n + "=" + v).list().ofMaxSize(5);
    }

    @Provide
    Arbitrary<List<String>> replParams() {
        return Arbitraries.of("node", "peers", "tables", "exclude", "schema", "apply", "install").set().ofMaxSize(4)
                .map(keys -> keys.stream().map(k -> "repl." + k + "=v").toList());
    }

    @Provide
    Arbitrary<String> text() {
        return Arbitraries.strings().withCharRange(' ', '\u00ff').withChars("€日本&=%+?").ofMaxLength(40);
    }

    @Property
    void encodedValuesRoundTrip(@ForAll("text") String value) throws Exception {
        String url = "jdbc:repl:h2:mem:x?a=1&repl.tables=" + URLEncoder.encode(value, StandardCharsets.UTF_8) + "&b=2";
        ReplUrl u = ReplUrl.parse(url);
        assertThat(u.replProperties()).containsEntry("repl.tables", value);
        assertThat(u.delegateUrl()).isEqualTo("jdbc:h2:mem:x?a=1&b=2");
    }

    @Property
    void acceptsNeverThrows(@ForAll String suffix) {
        boolean accepted = ReplUrl.accepts("jdbc:repl:" + suffix);
        assertThat(accepted).isEqualTo(suffix.matches("(?s)[A-Za-z][A-Za-z0-9_+.-]*:.*"));
    }
}
