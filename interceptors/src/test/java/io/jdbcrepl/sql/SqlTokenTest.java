package io.jdbcrepl.sql;

import io.jdbcrepl.sql.SqlToken.Kind;
import io.jdbcrepl.dialect.Dialect;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SqlTokenTest {

    private static List<String> values(String sql, String dialect) {
        return SqlToken.read(sql, Dialect.named(dialect)).stream().map(SqlToken::value).toList();
    }

    @Test
    void eachTokenHasItsKindTextAndStart() {
        List<SqlToken> tokens = SqlToken.read("select 'a''b', 1.5 from \"T\"", Dialect.named("postgresql"));
        assertThat(tokens).extracting(SqlToken::kind).containsExactly(Kind.WORD, Kind.STRING, Kind.SYMBOL, Kind.NUMBER,
                Kind.WORD, Kind.QUOTED);
        assertThat(tokens).extracting(SqlToken::text).containsExactly("select", "'a''b'", ",", "1.5", "from", "\"T\"");
        assertThat(tokens).extracting(SqlToken::start).containsExactly(0, 7, 13, 15, 19, 24);
        assertThat(tokens).extracting(SqlToken::value).containsExactly("select", "a'b", ",", "1.5", "from", "T");
        assertThat(tokens).allMatch(SqlToken::closed);
    }

    @Test
    void postgresStrings() {
        assertThat(values("'a\\b' E'it\\'s\\n\\x41\\101\\u0042' $$it's$$ $f$a$$b$f$", "postgresql"))
                .containsExactly("a\\b", "it's\nAAB", "it's", "a$$b");
        assertThat(values("\"a\"\"b\"", "postgresql")).containsExactly("a\"b");
    }

    @Test
    void mysqlStrings() {
        assertThat(values("'it\\'s' 'a''b' 'x\\%\\_\\t' `a``b`", "mysql")).containsExactly("it's", "a'b", "x\\%\\_\t", "a`b");
        assertThat(values("E'x'", "mariadb")).containsExactly("E", "x");
    }

    @Test
    void commentsPerDialect() {
        assertThat(values("a # b\n c", "mariadb")).containsExactly("a", "c");
        assertThat(values("a /* b /* c */ d */ e", "postgresql")).containsExactly("a", "e");
        assertThat(values("a /* b /* c */ d */ e", "mariadb")).containsExactly("a", "d", "*", "/", "e");
        assertThat(values("a // b\n c", "h2")).containsExactly("a", "c");
    }

    @Test
    void unclosedStringsAreMarked() {
        assertThat(SqlToken.read("x 'it\\'s", Dialect.named("mysql")).get(1).closed()).isFalse();
        assertThat(SqlToken.read("x 'it\\'s'", Dialect.named("mysql")).get(1).closed()).isTrue();
        assertThat(SqlToken.read("x 'it\\'s'", Dialect.named("postgresql")).get(3).closed()).isFalse();
        assertThat(SqlToken.read("x $$a", Dialect.named("h2")).get(1).closed()).isFalse();
    }
}
