package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every route file validates against the YAML DSL JSON schema that camel-yaml-dsl ships
 * ({@code schema/camelYamlDsl.json}, the one editors and Camel's tooling check against). Camel's
 * loader is more lenient than the schema (it takes {@code constant: 200}, which the schema wants
 * as a string), so a file that runs can still be one the tooling rejects; this test is what keeps
 * the two in step. Each violation is printed with its file and path.
 */
class RouteSchemaTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static JsonSchema schema;

    @BeforeAll
    static void loadSchema() throws IOException {
        // the schema of the camel-yaml-dsl version on the classpath, not a copy that could drift
        try (InputStream in = RouteSchemaTest.class.getClassLoader().getResourceAsStream("schema/camelYamlDsl.json")) {
            assertThat(in).as("schema/camelYamlDsl.json in the camel-yaml-dsl jar").isNotNull();
            JsonNode json = new ObjectMapper().readTree(in);
            // the file declares draft-04 in $schema; the factory is pinned to it so a newer draft's
            // rules are never applied by accident
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(json);
        }
    }

    @Test
    void every_route_file_validates_against_the_yaml_dsl_schema() throws IOException {
        List<String> violations = new ArrayList<>();
        List<Path> files;
        try (var list = Files.list(Path.of("routes"))) {
            files = list.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).as("routes/*.yaml").isNotEmpty();
        for (Path file : files) {
            for (ValidationMessage m : validate(YAML.readTree(file.toFile()))) {
                violations.add(file + " " + m.getMessage()); // the message starts with the path
            }
        }
        violations.forEach(System.out::println);
        assertThat(violations).as("YAML DSL schema violations (file, path: message)").isEmpty();
    }

    /** The check itself: a step the schema forbids is found, so the test above cannot pass on nothing. */
    @Test
    void a_known_bad_route_is_rejected() throws IOException {
        String bad = """
                - route:
                    id: bad
                    from:
                      uri: direct:bad
                      steps:
                        - setHeader:
                            name: CamelHttpResponseCode
                            constant: 200
                """;
        Set<ValidationMessage> found = validate(YAML.readTree(bad));
        found.forEach(m -> System.out.println("known-bad snippet " + m.getMessage()));
        assertThat(found).as("violations of a route with constant: 200").isNotEmpty();

        String good = bad.replace("constant: 200", "constant: \"200\"");
        assertThat(validate(YAML.readTree(good))).as("the same route with a string constant").isEmpty();
    }

    private static Set<ValidationMessage> validate(JsonNode routes) {
        return schema.validate(routes);
    }
}
