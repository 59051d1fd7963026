import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
  parse,
  validate,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { adminSchema } from "../../sandbox/shopify";
import { realAdminSchema } from "../support/real-admin-schema";
import { ADDRESS_CHECK_DOCUMENTS } from "./address-check-documents";

// The stand-in's SDL is written by hand; Shopify's real Admin schema of the same version ships
// with @shopify/dev-mcp. Every name the stand-in declares must exist there with the same type,
// nullability and default, so that a document valid on the stand-in is valid on Shopify.

function kind(type: GraphQLNamedType): string {
  if (isObjectType(type)) return "object";
  if (isInterfaceType(type)) return "interface";
  if (isInputObjectType(type)) return "input";
  if (isEnumType(type)) return "enum";
  if (isUnionType(type)) return "union";
  return "scalar";
}

function signature(
  field: GraphQLField<unknown, unknown> | GraphQLInputField | GraphQLArgument,
): string {
  const value = "defaultValue" in field ? field.defaultValue : undefined;
  return `${String(field.type)}${value === undefined ? "" : ` = ${JSON.stringify(value)}`}`;
}

/** Every difference between the stand-in's declaration of a type and Shopify's. */
function differences(name: string): string[] {
  const mine = adminSchema().getType(name)!;
  const real = realAdminSchema().getType(name);
  if (!real) return [`${name}: not in Shopify's schema`];
  if (kind(mine) !== kind(real)) return [`${name}: a ${kind(mine)} here, a ${kind(real)} there`];
  const problems: string[] = [];
  if (isEnumType(mine) && isEnumType(real)) {
    const values = new Set(real.getValues().map((v) => v.name));
    for (const value of mine.getValues()) {
      if (!values.has(value.name)) problems.push(`${name}.${value.name}: no such value`);
    }
  }
  if (isUnionType(mine) && isUnionType(real)) {
    const members = new Set(real.getTypes().map((t) => t.name));
    for (const member of mine.getTypes()) {
      if (!members.has(member.name)) problems.push(`${name} | ${member.name}: not a member`);
    }
  }
  if (
    (isObjectType(mine) || isInterfaceType(mine)) &&
    (isObjectType(real) || isInterfaceType(real))
  ) {
    const interfaces = new Set(real.getInterfaces().map((i) => i.name));
    for (const implemented of mine.getInterfaces()) {
      if (!interfaces.has(implemented.name)) {
        problems.push(`${name} implements ${implemented.name}: not in Shopify's schema`);
      }
    }
  }
  if (!isScalarType(mine) && !isEnumType(mine) && !isUnionType(mine)) {
    const realFields = (real as typeof mine).getFields() as Record<
      string,
      GraphQLField<unknown, unknown> | GraphQLInputField
    >;
    for (const field of Object.values(
      mine.getFields() as Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>,
    )) {
      const there = realFields[field.name];
      const where = `${name}.${field.name}`;
      if (!there) {
        problems.push(`${where}: no such field`);
        continue;
      }
      if (signature(field) !== signature(there)) {
        problems.push(`${where}: ${signature(field)} here, ${signature(there)} there`);
      }
      if (!("args" in field) || !("args" in there)) continue;
      for (const arg of field.args) {
        const realArg = there.args.find((a) => a.name === arg.name);
        if (!realArg) problems.push(`${where}(${arg.name}): no such argument`);
        else if (signature(arg) !== signature(realArg)) {
          problems.push(
            `${where}(${arg.name}): ${signature(arg)} here, ${signature(realArg)} there`,
          );
        }
      }
      // A required argument the stand-in left out would let a document pass here and fail there.
      for (const realArg of there.args) {
        const required = String(realArg.type).endsWith("!") && realArg.defaultValue === undefined;
        if (required && !field.args.some((a) => a.name === realArg.name)) {
          problems.push(`${where}(${realArg.name}): required by Shopify, missing here`);
        }
      }
    }
    // Likewise a required input field.
    if (isInputObjectType(mine) && isInputObjectType(real)) {
      for (const field of Object.values(real.getFields())) {
        const required = String(field.type).endsWith("!") && field.defaultValue === undefined;
        if (required && !mine.getFields()[field.name]) {
          problems.push(`${name}.${field.name}: required by Shopify, missing here`);
        }
      }
    }
  }
  return problems;
}

function declaredTypes(): string[] {
  return Object.keys(adminSchema().getTypeMap()).filter(
    (name) => !name.startsWith("__") && !["String", "Int", "Float", "Boolean", "ID"].includes(name),
  );
}

describe("the stand-in's schema against Shopify's Admin schema 2026-10", () => {
  it("declares only types Shopify has, each of the same kind", () => {
    const real = realAdminSchema();
    const missing = declaredTypes().filter((name) => !real.getType(name));
    expect(missing).toEqual([]);
  });

  it("gives every field, argument and input field Shopify's type, nullability and default", () => {
    expect(declaredTypes().flatMap(differences)).toEqual([]);
  });

  it("names the same root types for queries and mutations", () => {
    expect(adminSchema().getQueryType()?.name).toBe(realAdminSchema().getQueryType()?.name);
    expect(adminSchema().getMutationType()?.name).toBe(realAdminSchema().getMutationType()?.name);
  });
});

describe("the documents of the address check (issue 26)", () => {
  it("are valid on Shopify's schema and on the stand-in's alike", () => {
    const problems = Object.entries(ADDRESS_CHECK_DOCUMENTS).flatMap(([name, text]) =>
      [realAdminSchema(), adminSchema()].flatMap((schema) =>
        validate(schema, parse(text)).map((e) => `${name}: ${e.message}`),
      ),
    );
    expect(problems).toEqual([]);
  });
});
