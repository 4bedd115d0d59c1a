//! The model lab's tokenizer alone, for the browser tests that compare its ids with Hugging Face
//! `tokenizers`' in Chromium (`tests/e2e/model_tokenizer.test.mjs`): the core's
//! [`Tokenizer`], marshalled. The page itself tokenizes inside [`super::model::ModelLab`].

use attn_core::model::Tokenizer;
use wasm_bindgen::prelude::*;

/// A model's tokenizer, from its `vocab.txt` and `tokenizer_config.json`.
#[wasm_bindgen]
pub struct BertTokenizer {
    tokenizer: Tokenizer,
}

#[wasm_bindgen]
impl BertTokenizer {
    /// The tokenizer of `vocab.txt`'s text and `tokenizer_config.json`'s (or undefined), without
    /// a token limit. Throws naming the file that is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(vocab_txt: &str, tokenizer_config: Option<String>) -> Result<BertTokenizer, JsError> {
        let tokenizer = Tokenizer::from_files(vocab_txt, tokenizer_config.as_deref(), usize::MAX)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(BertTokenizer { tokenizer })
    }

    /// The ids of each of `texts` (`[CLS] … [SEP]`), one after the other, each preceded by its
    /// count: `[n0, ids0…, n1, ids1…, …]`.
    pub fn ids_of_each(&self, texts: Vec<String>) -> Result<Vec<u32>, JsError> {
        let mut out = Vec::with_capacity(texts.len() * 5);
        for text in &texts {
            let ids = self.tokenizer.encode(text).map_err(|e| JsError::new(&e.to_string()))?.ids;
            out.push(ids.len() as u32);
            out.extend(ids);
        }
        Ok(out)
    }
}
