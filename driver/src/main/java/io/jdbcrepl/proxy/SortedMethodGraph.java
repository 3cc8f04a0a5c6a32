package io.jdbcrepl.proxy;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.scaffold.MethodGraph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Byte Buddy's method graph with its nodes in name and descriptor order. Byte Buddy lists methods in
 * the order reflection returns them, which HotSpot does not keep from one JVM to the next: the proxy
 * classes {@link ProxyClassWriter} writes, and so the driver jar, differed from build to build.
 */
final class SortedMethodGraph implements MethodGraph.Linked {

    /** {@link MethodGraph.Compiler#DEFAULT}, its graphs sorted. */
    static final MethodGraph.Compiler COMPILER = new MethodGraph.Compiler.AbstractBase() {
        @Override
        public MethodGraph.Linked compile(TypeDefinition type, TypeDescription viewPoint) {
            return new SortedMethodGraph(MethodGraph.Compiler.DEFAULT.compile(type, viewPoint));
        }
    };

    private static final Comparator<MethodGraph.Node> ORDER = Comparator.comparing(
            (MethodGraph.Node node) -> node.getRepresentative().getInternalName())
            .thenComparing(node -> node.getRepresentative().getDescriptor());

    private final MethodGraph.Linked graph;

    private SortedMethodGraph(MethodGraph.Linked graph) {
        this.graph = graph;
    }

    @Override
    public MethodGraph.Node locate(MethodDescription.SignatureToken token) {
        return graph.locate(token);
    }

    @Override
    public MethodGraph.NodeList listNodes() {
        List<MethodGraph.Node> nodes = new ArrayList<>(graph.listNodes());
        nodes.sort(ORDER);
        return new MethodGraph.NodeList(nodes);
    }

    @Override
    public MethodGraph getSuperClassGraph() {
        return graph.getSuperClassGraph();
    }

    @Override
    public MethodGraph getInterfaceGraph(TypeDescription type) {
        return graph.getInterfaceGraph(type);
    }
}
