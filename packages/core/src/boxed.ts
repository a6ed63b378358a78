/**
 * The primitive a boxed string, number or boolean (`new String('…')`) holds, read from its internal
 * slot as JSON.stringify reads a boolean's: an own or inherited `valueOf` that returns another
 * object or throws cannot make the classified value differ from the copy the tool gets. Undefined
 * for any other object, one that only inherits from `String.prototype` included.
 */
export function boxedPrimitive(obj: object): string | number | boolean | undefined {
  try {
    if (obj instanceof String) return String.prototype.valueOf.call(obj);
    if (obj instanceof Number) return Number.prototype.valueOf.call(obj);
    if (obj instanceof Boolean) return Boolean.prototype.valueOf.call(obj);
  } catch {
    // (a prototype without the slot: an ordinary object)
  }
  return undefined;
}
