#[allow(non_upper_case_globals, non_snake_case, non_camel_case_types, clippy::all)]
const _: () = {
    const __VARIANTS: ::refgen::refgen_core::__private::Variants = ::refgen::refgen_core::__private::Variants::new(
        "Bst",
        &[
            ::refgen::refgen_core::Opt { label: "Leaf", weight: 1u32 },
            ::refgen::refgen_core::Opt { label: "Node", weight: 1u32 },
        ],
        1usize,
    );
    #[doc(hidden)]
    struct __ReflectGen {
        __marker: ::core::marker::PhantomData<fn() -> Bst>,
    }
    impl __ReflectGen {
        #[allow(unused_variables, clippy::all)]
        fn __run_variant<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __c: u64,
            __src: &mut __A,
            __args: &(i32, i32),
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            #[allow(unused_variables)]
            let lo = &__args.0;
            #[allow(unused_variables)]
            let hi = &__args.1;
            match __c {
                0u64 => ::core::result::Result::Ok(Bst::Leaf),
                1u64 => {
                    let __f_key: i32 = {
                        ::refgen::refgen_core::__private::run_field(
                            &::refgen::refgen_core::combinators::int::<i32>(*lo..=*hi).site("Bst::Node.key"),
                            "Bst::Node.key",
                            __src,
                        )
                    }?;
                    let __f_left: Box<Bst> = {
                        #[allow(unused_variables)]
                        let key = &__f_key;
                        let __gen = ::refgen::refgen_core::reflective::boxed_values(
                            <Bst as ::refgen::refgen_core::ReflectiveWith>::generator_with((*lo, *key - 1)),
                        );
                        ::refgen::refgen_core::__private::run_field(&__gen, "Bst::Node.left", __src)
                    }?;
                    let __f_right: Box<Bst> = {
                        #[allow(unused_variables)]
                        let key = &__f_key;
                        let __gen = ::refgen::refgen_core::reflective::boxed_values(
                            <Bst as ::refgen::refgen_core::ReflectiveWith>::generator_with((*key + 1, *hi)),
                        );
                        ::refgen::refgen_core::__private::run_field(&__gen, "Bst::Node.right", __src)
                    }?;
                    ::core::result::Result::Ok(Bst::Node { left: __f_left, key: __f_key, right: __f_right })
                }
                _ => ::core::result::Result::Err(::refgen::refgen_core::Stop::Rejected),
            }
        }
        #[doc = r" The one forward body, for both `run` and `run_rng`."]
        #[allow(unused_variables)]
        #[inline]
        fn __forward<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
            __args: &(i32, i32),
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            let __frame = ::refgen::refgen_core::__private::Frame::enter();
            if __frame.too_deep() {
                return ::core::result::Result::Err(::refgen::refgen_core::Stop::Void);
            }
            let __limited = __frame.at_limit(::refgen::refgen_core::__private::DEFAULT_DEPTH);
            let __c = {
                #[allow(unused_variables)]
                let lo = &__args.0;
                #[allow(unused_variables)]
                let hi = &__args.1;
                let __allowed: u64 =
                    0 | 1u64 | if ::refgen::refgen_core::__private::assume_bool(*lo <= *hi) { 2u64 } else { 0 };
                __VARIANTS.choose_among(__src, __limited, __allowed)?
            };
            let __r = self.__run_variant(__c, __src, __args);
            ::refgen::refgen_core::gen::Answerer::leave(__src);
            __r
        }
    }
    ::std::thread_local! { static __BODY : :: std :: cell :: OnceCell < :: refgen :: refgen_core :: args :: BoxGenWith < (i32 , i32 ,) , Bst >> = const { :: std :: cell :: OnceCell :: new () } ; }
    impl ::refgen::refgen_core::ReflectiveWith for Bst {
        type Args = (i32, i32);
        fn generator_with(__args: (i32, i32)) -> ::refgen::refgen_core::WithArgs<Self> {
            ::refgen::refgen_core::WithArgs::new(
                __BODY.with(|__c| {
                    ::std::rc::Rc::clone(
                        __c.get_or_init(|| ::std::rc::Rc::new(__ReflectGen { __marker: ::core::marker::PhantomData })),
                    )
                }),
                __args,
            )
        }
    }
    #[doc = r" The type's own generator: its arguments, then the body under them."]
    #[doc(hidden)]
    struct __ReflectTop {
        body: ::refgen::refgen_core::args::BoxGenWith<(i32, i32), Bst>,
    }
    impl __ReflectTop {
        #[allow(unused_variables)]
        #[inline]
        fn __forward<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            let lo: i32 = 0;
            let hi: i32 = ::refgen::refgen_core::__private::run_part(
                &::refgen::refgen_core::combinators::int::<i32>(0..=9).site("Bst.hi"),
                "Bst.hi",
                __src,
            )?;
            let __given = ::refgen::refgen_core::WithArgs::<Bst>::new(::std::rc::Rc::clone(&self.body), (lo, hi));
            ::refgen::refgen_core::gen::Answerer::sub(__src, &__given)
        }
    }
    impl ::refgen::refgen_core::Gen for __ReflectTop {
        type Value = Bst;
        fn run(
            &self,
            __src: &mut dyn ::refgen::refgen_core::Source,
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            self.__forward(__src)
        }
        fn run_rng(
            &self,
            __rng: &mut ::refgen::refgen_core::DetRng,
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            self.__forward(__rng)
        }
        #[allow(unused_variables)]
        fn back(&self, __target: &Bst) -> ::std::vec::Vec<::refgen::refgen_core::Way> {
            let mut __all = ::std::vec::Vec::new();
            let __ways = ::std::vec![::refgen::refgen_core::Way::empty()];
            let lo: i32 = 0;
            for hi in (0 as i32)..=(9 as i32) {
                let __ways = ::refgen::refgen_core::__private::back_part(
                    __ways.clone(),
                    "Bst.hi",
                    ::refgen::refgen_core::Gen::back(
                        &::refgen::refgen_core::combinators::int::<i32>(0..=9).site("Bst.hi"),
                        &hi,
                    ),
                );
                if __ways.is_empty() {
                    continue;
                }
                let __args: (i32, i32) = (lo, hi);
                let __body = ::refgen::refgen_core::GenWith::back_with(&*self.body, &__args, __target);
                __all.extend(::refgen::refgen_core::gen::product(__ways, &__body));
            }
            __all
        }
    }
    impl ::refgen::refgen_core::Reflective for Bst {
        fn generator() -> ::refgen::refgen_core::BoxGen<Self> {
            ::refgen::refgen_core::__private::cached::<Self>(|| -> ::refgen::refgen_core::BoxGen<Bst> {
                ::std::rc::Rc::new(__ReflectTop {
                    body: __BODY.with(|__c| {
                        ::std::rc::Rc::clone(
                            __c.get_or_init(|| {
                                ::std::rc::Rc::new(__ReflectGen { __marker: ::core::marker::PhantomData })
                            }),
                        )
                    }),
                })
            })
        }
    }
    impl ::refgen::refgen_core::GenWith<(i32, i32)> for __ReflectGen {
        type Value = Bst;
        fn run_with(
            &self,
            __args: &(i32, i32),
            __src: &mut dyn ::refgen::refgen_core::Source,
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            self.__forward(__src, __args)
        }
        fn run_rng_with(
            &self,
            __args: &(i32, i32),
            __rng: &mut ::refgen::refgen_core::DetRng,
        ) -> ::core::result::Result<Bst, ::refgen::refgen_core::Stop> {
            self.__forward(__rng, __args)
        }
        #[allow(unused_variables)]
        fn back_with(&self, __args: &(i32, i32), __target: &Bst) -> ::std::vec::Vec<::refgen::refgen_core::Way> {
            #[allow(unused_variables)]
            let lo = &__args.0;
            #[allow(unused_variables)]
            let hi = &__args.1;
            let __frame = ::refgen::refgen_core::__private::Frame::enter();
            if __frame.too_deep() {
                return ::std::vec::Vec::new();
            }
            let __limited = __frame.at_limit(::refgen::refgen_core::__private::DEFAULT_DEPTH);
            let __allowed: u64 =
                0 | 1u64 | if ::refgen::refgen_core::__private::assume_bool(*lo <= *hi) { 2u64 } else { 0 };
            #[allow(unused_variables)]
            match __target {
                Bst::Leaf => {
                    if !__VARIANTS.offers(__limited, __allowed, 0usize) {
                        return ::std::vec::Vec::new();
                    }
                    let __fields = (|| -> ::std::vec::Vec<::refgen::refgen_core::Way> {
                        #[allow(unused_mut)]
                        let mut __ways = ::std::vec![::refgen::refgen_core::Way::empty()];
                        __ways
                    })();
                    __VARIANTS.ways_among(__limited, __allowed, 0usize, __fields)
                }
                Bst::Node { left: __f_left, key: __f_key, right: __f_right, .. } => {
                    if !__VARIANTS.offers(__limited, __allowed, 1usize) {
                        return ::std::vec::Vec::new();
                    }
                    let __fields = (|| -> ::std::vec::Vec<::refgen::refgen_core::Way> {
                        #[allow(unused_mut)]
                        let mut __ways = ::std::vec![::refgen::refgen_core::Way::empty()];
                        __ways = ::refgen::refgen_core::__private::back_part(__ways, "Bst::Node.key", {
                            ::refgen::refgen_core::__private::back_field(
                                &::refgen::refgen_core::combinators::int::<i32>(*lo..=*hi).site("Bst::Node.key"),
                                "Bst::Node.key",
                                __f_key,
                            )
                        });
                        if __ways.is_empty() {
                            return __ways;
                        }
                        __ways = ::refgen::refgen_core::__private::back_part(__ways, "Bst::Node.left", {
                            #[allow(unused_variables)]
                            let key = __f_key;
                            let __gen = ::refgen::refgen_core::reflective::boxed_values(
                                <Bst as ::refgen::refgen_core::ReflectiveWith>::generator_with((*lo, *key - 1)),
                            );
                            ::refgen::refgen_core::__private::back_field(&__gen, "Bst::Node.left", __f_left)
                        });
                        if __ways.is_empty() {
                            return __ways;
                        }
                        __ways = ::refgen::refgen_core::__private::back_part(__ways, "Bst::Node.right", {
                            #[allow(unused_variables)]
                            let key = __f_key;
                            let __gen = ::refgen::refgen_core::reflective::boxed_values(
                                <Bst as ::refgen::refgen_core::ReflectiveWith>::generator_with((*key + 1, *hi)),
                            );
                            ::refgen::refgen_core::__private::back_field(&__gen, "Bst::Node.right", __f_right)
                        });
                        if __ways.is_empty() {
                            return __ways;
                        }
                        __ways
                    })();
                    __VARIANTS.ways_among(__limited, __allowed, 1usize, __fields)
                }
            }
        }
    }
};
