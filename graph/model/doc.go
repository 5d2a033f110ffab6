// Package model holds the API models: the structs gqlgen binds to GraphQL
// types (autobind) and REST encodes with their snake_case JSON tags, so both
// facades return one shape. Resolvers fill them from db rows.
package model
