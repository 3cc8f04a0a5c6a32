package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;
import org.junit.jupiter.api.Test;

import static io.jdbcrepl.sql.Analyses.opaque;
import static io.jdbcrepl.sql.Analyses.withDml;
import static org.assertj.core.api.Assertions.assertThat;

/** WITH statements that change rows taken apart into their WITH queries and main statement. */
class WithAnalysisTest {

    private static final Dialect PG = Dialect.named("postgresql");

    @Test
    void hibernatesJoinedBulkUpdate() {
        String sql = "with id_cte (id) as materialized (select d1_0.id from hib_dog d1_0 join hib_animal d1_1"
                + " on d1_0.id=d1_1.id where d1_0.id>=? and d1_0.id<? and (d1_0.barks%4)=0),"
                + "update_cte_hib_dog (id) as (update hib_dog d1_0 set barks=(d1_0.barks+1) where d1_0.id in"
                + " (select id.id from id_cte id) returning id),update_cte_hib_animal (id) as (update hib_animal d1_1"
                + " set name=(d1_1.name||' (bulk)'),age=? where d1_1.id in (select id.id from id_cte id) returning id)"
                + " select count(*) from id_cte id";
        WithDml with = withDml(sql, PG);
        assertThat(with.head()).isEqualTo("with ");
        assertThat(with.queries()).extracting(WithDml.Part::header)
                .containsExactly("id_cte (id) as materialized", "update_cte_hib_dog (id) as", "update_cte_hib_animal (id) as");
        assertThat(with.queries().get(0).dml()).isNull();
        assertThat(with.changes()).extracting(d -> d.target().name()).containsExactly("hib_dog", "hib_animal");
        assertThat(with.changes()).extracting(Dml::command).containsOnly(CommandType.UPDATE);
        assertThat(with.changes().get(1).returningTexts()).containsExactly("id");
        assertThat(with.main().text()).isEqualTo("select count(*) from id_cte id");
        assertThat(with.main().dml()).isNull();
        assertThat(with.parameterCount()).isEqualTo(3);
        assertThat(with.refusal().reason()).startsWith("A WITH query that contains INSERT, UPDATE or DELETE");
    }

    @Test
    void aMainStatementThatChangesRows() {
        WithDml with = withDml("WITH RECURSIVE ids AS (SELECT id FROM u WHERE x = ?) DELETE FROM t WHERE id IN"
                + " (SELECT id FROM ids) RETURNING id", PG);
        assertThat(with.head()).isEqualTo("WITH RECURSIVE ");
        assertThat(with.queries()).hasSize(1);
        assertThat(with.main().dml().command()).isEqualTo(CommandType.DELETE);
        assertThat(with.main().dml().target().name()).isEqualTo("t");
        assertThat(with.refusal().reason()).startsWith("INSERT, UPDATE or DELETE with a WITH clause");
        assertThat(with.refusal().tablesNamed()).extracting(TableRef::name).containsExactly("t");
    }

    @Test
    void whatCannotBeTakenApartStaysRefused() {
        // a MERGE inside, a nested WITH, a multi-table form: refused as before, naming the tables
        assertThat(opaque("WITH x AS (SELECT 1) MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE", PG)
                .reason()).contains("cannot be captured");
        assertThat(opaque("WITH a AS (WITH b AS (SELECT 1) DELETE FROM t RETURNING id) SELECT * FROM a", PG).tablesNamed())
                .extracting(TableRef::name).containsExactly("t");
        Analysis upsert = SqlClassifier.analyze("WITH x AS (UPDATE a SET n = 1 RETURNING id) INSERT INTO b SELECT id FROM x"
                + " ON CONFLICT (id) DO UPDATE SET n = 2", PG);
        assertThat(upsert).isInstanceOf(WithDml.class); // its plan refuses the upsert inside WITH, the main one is captured
        Analysis multi = SqlClassifier.analyze("WITH x AS (SELECT 1) DELETE a FROM a JOIN b ON a.id = b.id",
                Dialect.named("mariadb"));
        assertThat(multi).isInstanceOf(Opaque.class);
        assertThat(((Opaque) multi).reason()).contains("WITH");
    }

    @Test
    void queriesStayQueries() {
        assertThat(SqlClassifier.analyze("WITH x AS (SELECT 1 FOR UPDATE) SELECT * FROM x", PG)).isSameAs(NotDml.INSTANCE);
    }

    @Test
    void aWithQueryInAFromListIsNotATable() {
        WithDml with = withDml("WITH ks AS (SELECT 1 AS lo) UPDATE t SET v = 1 FROM ks, u WHERE t.k = ks.lo AND u.k = t.k", PG);
        assertThat(with.main().dml().fromRelations()).containsExactly(new FromRelation("ks"),
                new FromRelation("u", true, "u"));
    }
}
