package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.sql.MultiTableDml.JoinedTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.jdbcrepl.sql.Analyses.fragment;
import static io.jdbcrepl.sql.Analyses.opaque;
import static org.assertj.core.api.Assertions.assertThat;

/** MySQL/MariaDB multi-table UPDATE and DELETE taken apart (SPEC 8.3). */
class MultiTableAnalysisTest {

    private static MultiTableDml multi(String sql, String dialect) {
        Analysis a = SqlClassifier.analyze(sql, Dialect.named(dialect));
        assertThat(a).as(sql).isInstanceOf(MultiTableDml.class);
        return (MultiTableDml) a;
    }

    private static List<String> names(List<JoinedTable> tables) {
        return tables.stream().map(t -> t.table().reference() + (t.nullable() ? "?" : "")).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void updateOfAJoin(String dialect) {
        MultiTableDml m = multi("UPDATE a JOIN b ON a.id = b.a_id SET a.x = b.y + ?, b.`z` = ? WHERE b.k > ?", dialect);
        assertThat(m.command()).isEqualTo(CommandType.UPDATE);
        assertThat(names(m.tables())).containsExactly("a", "b");
        assertThat(names(m.changed())).containsExactly("a", "b");
        assertThat(m.assignments()).extracting(x -> x.table().table().name() + "." + x.column().name() + "=" + x.value().text())
                .containsExactly("a.x=b.y + ?", "b.z=?");
        assertThat(m.assignments().get(1).column().quoted()).isTrue();
        assertThat(m.assignments().get(1).value()).isEqualTo(fragment("?", 2));
        assertThat(m.head()).isEqualTo(fragment("UPDATE a JOIN b ON a.id = b.a_id SET a.x = b.y + ?, b.`z` = ?", 1, 2));
        assertThat(m.where()).isEqualTo(fragment("b.k > ?", 3));
        assertThat(m.join().text()).isEqualTo("a JOIN b ON a.id = b.a_id");
        assertThat(m.parameterCount()).isEqualTo(3);
    }

    @Test
    void aTableOnlyReadIsNotChanged() {
        MultiTableDml m = multi("UPDATE IGNORE hr.emp AS e, (SELECT id, max(s) m FROM pay GROUP BY id) p, dept d"
                + " SET e.salary = p.m WHERE e.id = p.id AND d.id = e.dept", "mariadb");
        assertThat(m.ignore()).isTrue();
        assertThat(names(m.tables())).containsExactly("e", "d");
        assertThat(m.tables().get(1).table()).isEqualTo(new TableRef(null, "dept", "d", false, false, "dept"));
        assertThat(names(m.changed())).containsExactly("e");
        assertThat(m.changed().get(0).table()).isEqualTo(new TableRef("hr", "emp", "e", false, false, "hr.emp"));
        assertThat(m.where().text()).isEqualTo("e.id = p.id AND d.id = e.dept");
        assertThat(m.join().text()).isEqualTo("hr.emp AS e, (SELECT id, max(s) m FROM pay GROUP BY id) p, dept d");
        assertThat(multi("UPDATE a, b SET a.x = b.x", "mariadb").where()).isNull();
    }

    @Test
    void outerJoinsMakeTheirOuterSideNullable() {
        assertThat(names(multi("UPDATE a LEFT JOIN b ON a.id = b.id JOIN c ON c.id = a.id SET a.x = 1", "mariadb").tables()))
                .containsExactly("a", "b?", "c");
        assertThat(names(multi("UPDATE a JOIN b ON a.id = b.id RIGHT JOIN c ON c.id = a.id SET c.x = 1", "mariadb").tables()))
                .containsExactly("a?", "b?", "c");
        assertThat(names(multi("UPDATE a JOIN (b LEFT JOIN c ON b.id = c.id) ON a.id = b.id SET a.x = 1", "mariadb").tables()))
                .containsExactly("a", "b?", "c?");
    }

    @Test
    void deleteForms() {
        MultiTableDml one = multi("DELETE a FROM a JOIN b ON a.id = b.a_id WHERE b.k = ?", "mariadb");
        assertThat(one.command()).isEqualTo(CommandType.DELETE);
        assertThat(names(one.changed())).containsExactly("a");
        assertThat(names(one.tables())).containsExactly("a", "b");
        assertThat(one.head()).isEqualTo(fragment("DELETE a FROM a JOIN b ON a.id = b.a_id"));
        assertThat(one.where()).isEqualTo(fragment("b.k = ?", 1));
        assertThat(one.join().text()).isEqualTo("a JOIN b ON a.id = b.a_id");

        MultiTableDml two = multi("DELETE x, b FROM a AS x JOIN `hr`.`b` AS b ON x.id = b.a_id", "mariadb");
        assertThat(two.tables().get(1).table()).isEqualTo(new TableRef("hr", "b", "b", true, true, "`hr`.`b`"));
        assertThat(names(two.changed())).containsExactly("x", "b");
        assertThat(two.where()).isNull();

        // DELETE FROM … USING and DELETE t.*: the texts stay as written
        MultiTableDml using = multi("DELETE IGNORE FROM a.*, b USING a LEFT JOIN b ON a.id = b.a_id WHERE a.k = 1", "mariadb");
        assertThat(using.ignore()).isTrue();
        assertThat(names(using.changed())).containsExactly("a", "b?");
        assertThat(using.head().text()).isEqualTo("DELETE IGNORE FROM a.*, b USING a LEFT JOIN b ON a.id = b.a_id");
        assertThat(using.join().text()).isEqualTo("a LEFT JOIN b ON a.id = b.a_id");
        MultiTableDml star = multi("DELETE a.* FROM a LEFT JOIN b ON a.id = b.a_id WHERE b.a_id IS NULL", "mariadb");
        assertThat(names(star.changed())).containsExactly("a");
        assertThat(star.where().text()).isEqualTo("b.a_id IS NULL");
    }

    @Test
    void whatCannotBeTakenApartStaysOpaque() {
        assertThat(opaque("UPDATE a JOIN b ON a.id = b.id SET x = 1", Dialect.named("mariadb")).reason())
                .startsWith("A multi-table UPDATE can be captured when each SET column names its table");
        assertThat(opaque("UPDATE a JOIN b ON a.id = b.id SET q.x = 1", Dialect.named("mariadb")).reason())
                .startsWith("UPDATE could not be analysed");
        assertThat(opaque("DELETE c FROM a JOIN b ON a.id = b.id", Dialect.named("mariadb")).reason())
                .startsWith("DELETE could not be analysed");
        // a single-table DELETE FROM … is still one
        assertThat(SqlClassifier.analyze("DELETE FROM a WHERE a.id = 1", Dialect.named("mariadb"))).isInstanceOf(Dml.class);
    }
}
