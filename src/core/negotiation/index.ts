/** Content negotiation (spec 4.5): formats by `Accept`, query or suffix, and the XML serializer. */
// What this folder adds to RouteConfig by declaration merging: `formats`, `formatSuffix`, `suffixes`; `RequestState.format`.
import './route-config.ts';

export { type Chosen, type Format, formatTypes, Offer } from './media-types.ts';
export { type NegotiationOptions, negotiation } from './negotiation.ts';
export { type FormatSuffixOptions, withFormatSuffixes } from './suffixes.ts';
export { createXmlSerializer, type XmlOptions } from './xml.ts';
export { isXmlName, singularOf } from './xml-names.ts';
