// The editor document as the front end sees it: format "ainb-editor-document/2", declared in
// internal/graph/types.go and described exactly by internal/graph/document.schema.json. These
// JSDoc types are the same shape, for readers and editors of the front end. Everything is
// plain JSON: JSON.parse reads it and JSON.stringify writes it.

export const FORMAT = "ainb-editor-document/2";

/**
 * @typedef {object} Document
 * @property {string} format          FORMAT
 * @property {string} name            the uploaded file's name, for downloads
 * @property {number} version         1028 (0x404), 1031 (0x407) or 1032 (0x408)
 * @property {string} filename
 * @property {string} category
 * @property {Command[]} commands
 * @property {Node[]} nodes           a node's place here is its index in the file
 * @property {Attachment[]} attachments
 * @property {BlackboardParam[]} blackboard
 * @property {{version: number, functions: {text: string, parsedText?: string}[]} | null} expressions
 *   parsedText: the text as parsed, kept by the page (edits.js) for a function whose text it
 *   changed, so that the build edits only that function (never in a parse)
 * @property {{path: string, category: string, instances: number}[]} modules
 * @property {{blackboardId: number, parentBlackboardId: number}} moduleCall
 * @property {Replacement[] | null} replacements
 * @property {EnumRelocation[]} enumRelocations
 * @property {{description: string, unknown: number[]} | null} section58
 * @property {boolean} hasSection6C
 * @property {string} [layout]        opaque: passed back untouched
 */

/**
 * @typedef {object} Command
 * @property {string} name
 * @property {string} guid
 * @property {number} root            node id
 * @property {number} secondary       node id, or -1
 */

/**
 * @typedef {"int" | "bool" | "float" | "string" | "vec3f" | "pointer" | "u32"} ValueType
 */

/**
 * A float: a number, or for NaN, infinities and -0 the string of its bits, "0x7fc00000".
 * @typedef {number | string} Float
 */

/**
 * An immediate value: number (int, u32), boolean (bool), Float (float), string (string),
 * Float[3] (vec3f), null (pointer).
 * @typedef {number | boolean | string | Float[] | null} Value
 */

/**
 * @typedef {object} Node
 * @property {number} id
 * @property {string} type            "UserDefined", "S32Selector", ... "SplitTiming"
 * @property {string} name            class name of a user-defined node, module of a caller
 * @property {string} guid
 * @property {boolean} [query]
 * @property {boolean} [moduleCaller]
 * @property {boolean} [residentInit]
 * @property {boolean} [multiParamV2]
 * @property {number} x               top-left corner, canvas units
 * @property {number} y
 * @property {boolean} [pinned]       a place the user chose; Tidy leaves it
 * @property {Property[]} [properties]
 * @property {Input[]} [inputs]
 * @property {Output[]} [outputs]
 * @property {Child[]} [children]
 * @property {Jump[]} [jumps]
 * @property {number[]} [queries]     ids of the query nodes it reads
 * @property {number[]} [attachments] indices into Document.attachments
 * @property {{slot: string, action: string}[]} [actions]
 * @property {{desiredState: string, unknown: number[]}} [stateInfo]  0x404 files
 */

/**
 * Where a value comes from: one of node (+ output), blackboard (+ component) or expression;
 * an input's node output may also go through an expression (node and expression: the output
 * is the function's In, the value its result). None of them (in a multi-input's sources)
 * stands for the immediate value.
 * @typedef {object} Source
 * @property {number} [node]          node id
 * @property {number} [output]        index into that node's outputs; absent for 0
 * @property {number} [missingOutput] instead of output: an output the node lacks, as the file's
 *                                    index among its outputs of the value's type (a warning)
 * @property {number} [blackboard]    index into Document.blackboard
 * @property {"x" | "y" | "z"} [component]
 * @property {number} [expression]    index into Document.expressions.functions; beside node,
 *                                    the function the node's output goes through
 * @property {boolean} [isOutput]     multi-input sources only
 * @property {boolean} [usesDefault]  multi-input sources only
 */

/**
 * @typedef {object} Property
 * @property {string} name
 * @property {ValueType} type
 * @property {string} [className]     pointers
 * @property {Value} value
 * @property {Source} [source]        absent: the value itself
 * @property {boolean} [isOutput]
 * @property {boolean} [usesDefault]
 */

/**
 * @typedef {object} Input
 * @property {string} name
 * @property {ValueType} type
 * @property {string} [className]
 * @property {Value} value            the default value
 * @property {Source} [source]        a single input
 * @property {Source[]} [sources]     a multi-input (never with source)
 * @property {boolean} [setBlackboard]
 * @property {boolean} [isOutput]
 * @property {boolean} [usesDefault]
 */

/**
 * @typedef {object} Output
 * @property {string} name
 * @property {ValueType} type
 * @property {string} [className]
 * @property {boolean} [connected]
 */

/**
 * @typedef {object} Child
 * @property {number | null} node     node id; null: leads to no node (stored 0x7FFF, a warning)
 * @property {string} name
 * @property {Condition} [condition]  selectors only
 */

/**
 * @typedef {object} Condition
 * @property {number} [int]
 * @property {string} [string]
 * @property {Float} [weight]
 * @property {Float} [min]
 * @property {Float} [max]
 * @property {number} [blackboard]
 * @property {number} [minBlackboard]
 * @property {number} [maxBlackboard]
 */

/**
 * @typedef {object} Jump
 * @property {number} node            node id
 * @property {number} type
 * @property {string} [command]
 * @property {boolean} [postCalc]
 */

/**
 * @typedef {object} Attachment
 * @property {string} name
 * @property {number} debug
 * @property {Property[]} [properties]
 */

/**
 * @typedef {object} BlackboardParam
 * @property {string} name
 * @property {ValueType} type
 * @property {string} [notes]
 * @property {"root" | "parent" | "none"} inherit
 * @property {string} [file]
 * @property {Value} value
 */

/**
 * @typedef {object} Replacement
 * @property {"removeChild" | "replaceChild" | "removeAttachment"} type
 * @property {number} node            node id
 * @property {number} index
 * @property {number} [new]           node id (replaceChild)
 */

/**
 * @typedef {object} EnumRelocation
 * @property {string} className
 * @property {string} valueName
 * @property {{node?: number, attachment?: number, property?: number, input?: number}} [target]
 */
